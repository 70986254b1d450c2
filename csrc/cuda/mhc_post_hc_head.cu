// mhc_post_hc_head (spec §4.6): the general tile kernel (mhc_post_hc_head_kernel.cuh) for any n and D.
#include "cuda_ops.h"
#include "mhc_post_hc_head_kernel.cuh"

namespace dsv4::cuda {

int mhc_post_hc_head(const MhcPostHeadParams& p, void* stream) {
  return post_head::launch_general(p, static_cast<cudaStream_t>(stream));
}

}  // namespace dsv4::cuda
