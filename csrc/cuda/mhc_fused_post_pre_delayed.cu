// mhc_fused_post_pre_delayed (DeepSeek-V4.1's seam): the general tile kernel
// (mhc_fused_post_pre_delayed_kernel.cuh) for any n and D.
#include "cuda_ops.h"
#include "mhc_fused_post_pre_delayed_kernel.cuh"

namespace dsv4::cuda {

int mhc_fused_post_pre_delayed(const MhcFusedDelayedParams& p, void* stream) {
  return fused_delayed::launch(p, static_cast<cudaStream_t>(stream));
}

}  // namespace dsv4::cuda
