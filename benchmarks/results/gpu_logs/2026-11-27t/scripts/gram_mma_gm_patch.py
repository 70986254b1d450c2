"""gm: the D = 4096 (bf16) engines compute the squares / the fused norm's Gram matrix on tensor cores (tile_squares'
mma form, which the tf32 engines of D = 7168 use) instead of FMA chains on CUDA cores, in the TMA kernel and in the
pipeline kernel alike (a token keeps one set of bits whatever its batch: both kernels change together). Other bits
than main's for the squares / Gram, within the reference tolerance."""
p = "csrc/cuda/mhc_tma_kernel.cuh"
s = open(p).read()
old = "pipeline_mhc::tile_squares<kNorm, true>(r, lane / 4, ssq);"
assert s.count(old) == 1
s = s.replace(old, "pipeline_mhc::tile_squares<kNorm, false>(r, lane / 4, ssq);")
open(p, "w").write(s)
p = "csrc/cuda/mhc_pipeline_kernel.cuh"
s = open(p).read()
old = "if constexpr (kFirst) tile_squares<kNorm, bf16_parts(E)>(cur.r, g, sq);"
assert s.count(old) == 1
s = s.replace(old, "if constexpr (kFirst) tile_squares<kNorm, false>(cur.r, g, sq);")
open(p, "w").write(s)
print("patched")
