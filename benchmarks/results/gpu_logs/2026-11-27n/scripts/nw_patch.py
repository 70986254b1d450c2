p='csrc/cuda/mhc_tma_kernel.cuh'
s=open(p).read()
def rep(old,new,count=1):
    global s
    n=s.count(old)
    assert n==count, (old,n)
    s=s.replace(old,new)
rep("""  alignas(16) float owner_sums[kOwnerWarps][2][parts_stride<M, kNorm>()];
};""","""  alignas(16) float owner_sums[kOwnerWarps][2][parts_stride<M, kNorm>()];
  alignas(16) bf16 norm_w[kNorm && held_collapse<M>() ? kDs : 8];
};""")
rep("""      if constexpr (kNorm) load_bf16x8(pp.norm_weight + d0 + v * kStageD, wv);""",
"""      if constexpr (kNorm) load_bf16x8(&ct.norm_w[8 * c + v * kStageD], wv);""")
rep("""  if (warp > 0) stage_fn<M>(pp, rank, b_smem, threadIdx.x - 32, kThreads - 32);
""","""  if (warp > 0) stage_fn<M>(pp, rank, b_smem, threadIdx.x - 32, kThreads - 32);
  if constexpr (kNorm && held_collapse<M>()) {  // 32 x 16 bytes
    if (warp == 1)
      reinterpret_cast<uint4*>(ct.norm_w)[threadIdx.x % 32] =
          __ldg(reinterpret_cast<const uint4*>(pp.norm_weight + rank * kDs) + threadIdx.x % 32);
  }
""")
open(p,'w').write(s)
print("nw patched")
