"""g8 (session 26, over g7c): tile_squares' tensor-core Gram (kNorm, the tf32 engines at D = 7168: the pipeline kernel
and the TMA kernel's projection warps) from gram_own, two entries an mma: 24 mma a 16-token block instead of 40, the
same chains (the same bits if an mma element's bits depend on its row and column values only). Run in the tree."""
p = "csrc/cuda/mhc_pipeline_kernel.cuh"
s = open(p).read()
old = """    const auto gram = [&](float (&lo)[4], float (&hi)[4], int i, int k) {"""
i = s.index(old)
j = s.index("\n  }\n}\n", i)
body = s[i:j]
new = """    if constexpr (kNorm) {  // two entries an mma (gram_own): tokens g, then g + 8
      gram_own(r[0], g, sq[0]);
      gram_own(r[1], g, sq[1]);
      return;
    }
""" + body
s = s[:i] + new + s[j:]
open(p, "w").write(s)
