// mhc_fused_post_pre_delayed (DeepSeek-V4.1's seam). n = 4 below fused_compose_min_tokens: the pipelined
// fast path (post in registers, residual_out stored, the rounded values projected, its owners storing
// new_pre and handing the carried weights to the collapse). From there on, mhc_post then
// mhc_pre_delayed on the stored streams (its own dispatch; faster, the same bits per token,
// as in mhc_fused_post_pre.cu). Other shapes: the general tile kernel
// (mhc_fused_post_pre_delayed_kernel.cuh) for any n and D.
#include "cuda_ops.h"
#include "mhc_fused_post_pre_delayed_kernel.cuh"
#include "mhc_pipeline_kernel.cuh"
#include "mhc_post_kernel.cuh"

namespace dsv4::cuda {

int mhc_fused_post_pre_delayed(const MhcFusedDelayedParams& p, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  const MhcFusedParams fp{p.post, p.pre.pre};
  if (p.pre.pre.tokens < pipeline_mhc::fused_compose_min_tokens(p.pre.pre.hc_mult, p.pre.pre.hidden)) {
    const int fast =
        pipeline_mhc::launch<pipeline_mhc::Mode::kFusedDelayed>(fp, s, {p.pre.pre_mix, p.pre.new_pre});
    return fast >= 0 ? fast : fused_delayed::launch(p, s);
  }
  if (p.pre.pre.hc_mult != pipeline_mhc::kN) return fused_delayed::launch(p, s);
  const int err = launch_mhc_post(p.post, s);
  return err != 0 ? err : mhc_pre_delayed(p.pre, stream);
}

}  // namespace dsv4::cuda
