"""ng (timing only, wrong values with the norm): the D = 4096 TMA projection computes the plain sum of squares
(kNorm = false's tile_squares) in place of the fused norm's 4x4 Gram matrix (the other nine entries zero): what the
Gram matrix on CUDA cores costs the projection warpgroup. Applied over main (ng) or over hp (hpng)."""
p = "csrc/cuda/mhc_tma_kernel.cuh"
s = open(p).read()
old = "      pipeline_mhc::tile_squares<kNorm, true>(r, lane / 4, ssq);\n"
new = """      if constexpr (kNorm) {
        float s1[2][1];
        pipeline_mhc::tile_squares<false, true>(r, lane / 4, s1);
#pragma unroll
        for (int h = 0; h < 2; ++h)
#pragma unroll
          for (int q = 0; q < kSq; ++q) ssq[h][q] = q == 0 ? s1[h][0] : 0.0f;
      } else {
        pipeline_mhc::tile_squares<kNorm, true>(r, lane / 4, ssq);
      }
"""
assert s.count(old) == 1
s = s.replace(old, new)
open(p, "w").write(s)
print("patched")
