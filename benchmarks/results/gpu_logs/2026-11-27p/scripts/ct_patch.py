# ct (timing only, wrong bits): each CTA stages 98 KB of fn that is contiguous (items q of rank r at
# fn + (r * kItems + q) * 32 floats, inside fn for 24 rows: 16 x 768 x 128 B = 1.5 MB) instead of its 96 slices of
# 1 KB at a 16 KB stride: is the D = 4096 staging time the power-of-two stride?
p = 'csrc/cuda/mhc_tma_kernel.cuh'
s = open(p).read()
old = "          reinterpret_cast<const float4*>(pp.fn + int64_t(n) * kN * kHidden + i * kHidden + rank * kDs + st * kStageD);"
assert old in s
s = s.replace(old, "          reinterpret_cast<const float4*>(pp.fn + (int64_t(rank) * kItems + q) * kStageD + 0 * (n + i + st));")
open(p, 'w').write(s)
print("ct patched")
