"""rg (prepared in session 20, not measured): the ring collapse (mhc_pre_delayed without the norm) and the held
collapse (hc_head, the seam) release a ring slot only after a CTA fence, as the Gram warps do since session 20:
their words are used before the arrive in source order only, the pattern that gave the Gram warps another fill's
words. Their tests pass today; this measures what the guard costs (if nothing, keep it)."""
p = "csrc/cuda/mhc_tma_kernel.cuh"
s = open(p).read()
old = """      for (int h = 0; h < kH; ++h) ring_collapse8(r[h], pre[h], identity, out[h]);
      __syncwarp();
      if (lane == 0) mbar_arrive(&ct.empty[slot]);"""
new = """      for (int h = 0; h < kH; ++h) ring_collapse8(r[h], pre[h], identity, out[h]);
      __threadfence_block();  // the slot's loads performed before its release (gram_loop)
      __syncwarp();
      if (lane == 0) mbar_arrive(&ct.empty[slot]);"""
assert s.count(old) == 1
s = s.replace(old, new)
old = """      __syncwarp();
      if (lane == 0) mbar_arrive(&ct.empty[slot]);  // after the words are used (ring_collapse_loop)"""
new = """      __threadfence_block();  // the slot's loads performed before its release (gram_loop)
      __syncwarp();
      if (lane == 0) mbar_arrive(&ct.empty[slot]);  // after the words are used (ring_collapse_loop)"""
assert s.count(old) == 1
s = s.replace(old, new)
open(p, "w").write(s)
print("patched")
