#include "cuda_ops.h"
#include "mhc_post_kernel.cuh"

namespace dsv4::cuda {

int mhc_post(const MhcPostParams& p, void* stream) {
  return launch_mhc_post(p, static_cast<cudaStream_t>(stream));
}

}  // namespace dsv4::cuda
