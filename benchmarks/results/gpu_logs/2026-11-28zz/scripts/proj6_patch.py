# p6: the D = 7168 24-row projection (mhc_pre, mhc_pre_delayed) on six warps of one (row tile, 16 tokens) unit each
# plus two squares warps (a fourth warpgroup), instead of four warps of which two carry two row tiles (64 mma a stage).
# Same chains, stream order, stage order and squares code per unit: the same bits.
import sys
p = 'csrc/cuda/mhc_tma_kernel.cuh'
s = open(p).read()
def rep(old, new, count=1):
    global s
    assert s.count(old) == count, (old, s.count(old))
    s = s.replace(old, new)

rep('''// Threads: producer + owners, the wgmma warpgroup, the collapse warpgroup, and a fourth that applies the fused
// seam's post (mhc_post_hc_head) or sums the fused norm's Gram matrix (gram_warps).
template <Mode M, bool kNorm, int kD>
constexpr int threads() {
  return pipeline_mhc::has_post(M) || gram_warps<M, kNorm, kD>() ? 512 : 384;
}''', '''// D = 7168, 24 rows (mhc_pre, mhc_pre_delayed): a stage is 6 units of one row tile x 16 tokens (32 tf32 mma each)
// and the squares of two 16-token blocks. On four warps, two of them carried two units, and those two were busy
// 93 % of the kernel (session 27's trace): the projection paced the stream. Here a fourth warpgroup takes the
// third row tile and the squares, so that no warp has more than one unit (split_projection).
template <Mode M, int kD>
constexpr bool split_projection() {
  return Geo<kD>::kTf32 && pipeline_mhc::proj_rows<M>() == 24;
}
// Threads: producer + owners, the wgmma warpgroup, the collapse warpgroup, and a fourth that applies the fused
// seam's post (mhc_post_hc_head), sums the fused norm's Gram matrix (gram_warps) or projects (split_projection).
template <Mode M, bool kNorm, int kD>
constexpr int threads() {
  return pipeline_mhc::has_post(M) || gram_warps<M, kNorm, kD>() || split_projection<M, kD>() ? 512 : 384;
}''')
rep('''  return gram_warps<M, kNorm, kD>()     ? Regs{128, 104, 128, 168, 112}
''', '''  return gram_warps<M, kNorm, kD>()     ? Regs{128, 104, 128, 168, 112}
         : split_projection<M, kD>()    ? Regs{128, 104, 120, 168, 120}
''')
rep('''                  regs_fit<Mode::kFusedHead, false, 7168>(),''', '''                  regs_fit<Mode::kFusedHead, false, 7168>() && regs_fit<Mode::kPre, true, 7168>() &&
                  regs_fit<Mode::kDelayed, false, 7168>(),''')
rep('''template <Mode M, bool kNorm>
__device__ __forceinline__ void mma_loop_tf32(Ctrl<M, kNorm, 7168>& ct, const unsigned char* stages,
                                              const float* fn_s, int rank, int ntiles) {
  constexpr int kNt = (rows<M>() + 7) / 8;
  if constexpr (kNt == 1) {
    project_tf32<M, kNorm, false, 0, 1, !gram_in_post<M, kNorm, 7168>()>(ct, stages, fn_s, rank, ntiles);
  } else if (threadIdx.x % 128 < 64) {
    project_tf32<M, kNorm, true, 0, 1, true>(ct, stages, fn_s, rank, ntiles);
  } else {
    project_tf32<M, kNorm, true, 1, kNt, false>(ct, stages, fn_s, rank, ntiles);
  }
}''', '''// Warps 4-7 and (24 rows) 12-15: warps 4 + 2 nt and 5 + 2 nt project row tile nt of tokens 0-15 and 16-31, warps
// 14-15 sum those tokens' squares (split_projection).
template <Mode M, bool kNorm>
__device__ __forceinline__ void mma_loop_tf32(Ctrl<M, kNorm, 7168>& ct, const unsigned char* stages,
                                              const float* fn_s, int rank, int ntiles) {
  constexpr int kNt = (rows<M>() + 7) / 8;
  static_assert(kNt == 1 || (kNt == 3 && split_projection<M, 7168>()), "hc_head's rows or 24");
  if constexpr (kNt == 1) {
    project_tf32<M, kNorm, false, 0, 1, !gram_in_post<M, kNorm, 7168>()>(ct, stages, fn_s, rank, ntiles);
  } else {
    const int warp = threadIdx.x / 32;
    if (warp < 6) {
      project_tf32<M, kNorm, true, 0, 1, false>(ct, stages, fn_s, rank, ntiles);
    } else if (warp < 8) {
      project_tf32<M, kNorm, true, 1, 2, false>(ct, stages, fn_s, rank, ntiles);
    } else if (warp < 14) {
      project_tf32<M, kNorm, true, 2, 3, false>(ct, stages, fn_s, rank, ntiles);
    } else {
      project_tf32<M, kNorm, true, 0, 0, true>(ct, stages, fn_s, rank, ntiles);
    }
  }
}''')
rep('''  constexpr bool kGramWarps = gram_warps<M, kNorm, kD>();
  unsigned char* xs''', '''  constexpr bool kGramWarps = gram_warps<M, kNorm, kD>();
  constexpr bool kSplitProjection = split_projection<M, kD>();
  unsigned char* xs''')
rep('''                      (G::kTf32 && rows<M>() == kN ? 2 : 4) + (kReadOnce ? 4 : 0) + (kGramWarps ? 4 : 0));''',
    '''                      (G::kTf32 && rows<M>() == kN ? 2 : 4) + (kReadOnce ? 4 : 0) + (kGramWarps || kSplitProjection ? 4 : 0));''')
rep('''  } else if (kPost && warp >= 12) {
    if constexpr (kPost) {''', '''  } else if (kSplitProjection && warp >= 12) {
    if constexpr (kSplitProjection) {
      set_warpgroup_regs<kRegs.post, kRegs.launch>();
      mma_loop_tf32<M, kNorm>(ct, stages, reinterpret_cast<const float*>(b_smem), rank, ntiles);
    }
  } else if (kPost && warp >= 12) {
    if constexpr (kPost) {''')
open(p, 'w').write(s)
print("patched p6")
