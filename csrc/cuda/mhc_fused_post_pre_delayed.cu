// mhc_fused_post_pre_delayed (DeepSeek-V4.1's seam): the pipelined fast path for n = 4 (post in
// registers, residual_out stored, the rounded values projected, its owners storing new_pre and
// handing the carried weights to the collapse); otherwise the general tile kernel
// (mhc_fused_post_pre_delayed_kernel.cuh) for any n and D.
#include "cuda_ops.h"
#include "mhc_fused_post_pre_delayed_kernel.cuh"
#include "mhc_pipeline_kernel.cuh"

namespace dsv4::cuda {

int mhc_fused_post_pre_delayed(const MhcFusedDelayedParams& p, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  const MhcFusedParams fp{p.post, p.pre.pre};
  const int fast =
      pipeline_mhc::launch<pipeline_mhc::Mode::kFusedDelayed>(fp, s, {p.pre.pre_mix, p.pre.new_pre});
  return fast >= 0 ? fast : fused_delayed::launch(p, s);
}

}  // namespace dsv4::cuda
