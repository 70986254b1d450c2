// Fused post+pre: the pipelined fast path (n = 4) computes the post in registers, stores the bf16
// residual and projects those rounded values without reading them back; otherwise the post kernel
// stores the residual and the pre kernel reads it (§3.7's semantics either way).
#include "cuda_ops.h"
#include "mhc_pipeline_kernel.cuh"
#include "mhc_post_kernel.cuh"
#include "mhc_pre_kernel.cuh"

namespace dsv4::cuda {

int mhc_fused_post_pre(const MhcFusedParams& p, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  const int fast = pipeline_mhc::launch<pipeline_mhc::Mode::kFused>(p, s);
  if (fast >= 0) return fast;
  const int err = launch_mhc_post(p.post, s);
  return err != 0 ? err : launch_mhc_pre<false>(p.pre, s);
}

}  // namespace dsv4::cuda
