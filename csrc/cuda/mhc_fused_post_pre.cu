// Fused post+pre, first form: the post kernel stores the bf16 residual, the pre kernel reads it
// back (§3.7's semantics by construction). Single-pass fusion is a later optimisation.
#include "cuda_ops.h"
#include "mhc_post_kernel.cuh"
#include "mhc_pre_kernel.cuh"

namespace dsv4::cuda {

int mhc_fused_post_pre(const MhcFusedParams& p, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  const int err = launch_mhc_post(p.post, s);
  return err != 0 ? err : launch_mhc_pre<false>(p.pre, s);
}

}  // namespace dsv4::cuda
