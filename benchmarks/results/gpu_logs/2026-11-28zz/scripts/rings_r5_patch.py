# r5: one more TMA ring slot for the non-held TMA kernels (mhc_pre, mhc_pre_delayed): 5 slots of 8 KB at D = 7168,
# 4 of 16 KB at D = 4096. Session 27: the slot cycle is ~2.6 us at both D (the delayed op without the norm streams
# 48 KB in flight at D = 4096, 88 %, and 32 KB at 7168, 59 %: throughput in proportion to the bytes in flight).
import sys
p = 'csrc/cuda/mhc_tma_kernel.cuh'
s = open(p).read()
old = "  return !held_collapse<M>() ? (Geo<kD>::kTf32 ? 4 : 3)"
assert s.count(old) == 1
s = s.replace(old, "  return !held_collapse<M>() ? (Geo<kD>::kTf32 ? %s : %s)" % (sys.argv[1], sys.argv[2]))
open(p, 'w').write(s)
print("patched rings", sys.argv[1:])
