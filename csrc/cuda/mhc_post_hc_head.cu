// mhc_post_hc_head (spec §4.6) with streams_out (the model's MTP stash), n = 4, by T:
//  - D = 4096 / 7168 from tma_mhc::min_tokens (1536 / 1024): the TMA kernel fuses the seam (the post
//    applied to each stage in shared memory, the stash stored from there, hc_head's held collapse;
//    mhc_tma_kernel.cuh). With the norm at T >= 16384: 87-91 % of the 20·T·D floor at D = 4096 against
//    57-59 % composed (NOTES, sessions 13-14), 83-85 % at D = 7168 against 60 % on the pipeline (15).
//  - D = 4096 from fused_compose_min_tokens (113): mhc_post, then hc_head's pipeline over the stored stash
//    (with the final RMSNorm), 9-17 % faster than the fused pipeline (NOTES, session 12).
//  - else the pipelined kernel: the post in registers, the stash stored, the collapse from it (L2). At
//    D = 7168 the composed pair measured slower (hc_head's fp32-fn engine with the norm: 386 against
//    335 us at T = 4096), so it keeps this below 1024 tokens.
// Every path gives the same bits per token: mhc_post's FMA order, then hc_head's chains on the
// rounded streams (the stash's values). Otherwise (no stash, other n or D) the general tile kernel
// (mhc_post_hc_head_kernel.cuh) for any n and D.
#include "cuda_ops.h"
#include "mhc_pipeline_kernel.cuh"
#include "mhc_post_hc_head_kernel.cuh"
#include "mhc_post_kernel.cuh"
#include "mhc_tma_kernel.cuh"

namespace dsv4::cuda {

int mhc_post_hc_head(const MhcPostHeadParams& p, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  if (const int tma = tma_mhc::launch_fused_head(p, s); tma >= 0) return tma;
  if (p.post.out != nullptr && p.pre.tokens >= pipeline_mhc::fused_compose_min_tokens(p.pre.hc_mult, p.pre.hidden) &&
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
