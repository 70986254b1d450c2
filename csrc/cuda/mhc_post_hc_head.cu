// mhc_post_hc_head (spec §4.6) with streams_out (the model's MTP stash), n = 4: the pipelined kernel
// applies the post in registers, stores the stash and collapses from it (L2). At D = 4096 (fn staged as
// bf16 parts) from kFusedComposeMinTokens on, mhc_post then hc_head's pipeline over the stored stash
// (with the final RMSNorm) is 9-17 % faster (benchmarks/NOTES.md, session 2026-11-26 (12)), as for the
// fused post+pre, and gives the same bits per token: the pipeline applies mhc_post's FMA order and
// projects the rounded values, which are the stash's. At D = 7168 the composed pair measured slower
// (hc_head's fp32-fn engine with the norm: 386 against 335 us at T = 4096). Otherwise (no stash, other
// n or D) the general tile kernel (mhc_post_hc_head_kernel.cuh) for any n and D.
#include "cuda_ops.h"
#include "mhc_pipeline_kernel.cuh"
#include "mhc_post_hc_head_kernel.cuh"
#include "mhc_post_kernel.cuh"

namespace dsv4::cuda {

int mhc_post_hc_head(const MhcPostHeadParams& p, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  if (p.post.out != nullptr && p.pre.tokens >= pipeline_mhc::kFusedComposeMinTokens &&
      pipeline_mhc::stages_bf16_parts(p.pre.hc_mult, p.pre.hidden)) {
    if (const int err = launch_mhc_post(p.post, s); err != 0) return err;
    MhcPreParams head = p.pre;
    head.residual = p.post.out;
    // -1: the pipeline does not apply here; the general kernel recomputes the post (the same bits).
    if (const int err = pipeline_mhc::launch_head(head, s); err >= 0) return err;
  } else if (const int fast = pipeline_mhc::launch<pipeline_mhc::Mode::kFusedHead>(p, s); fast >= 0) {
    return fast;
  }
  return post_head::launch_general(p, s);
}

}  // namespace dsv4::cuda
