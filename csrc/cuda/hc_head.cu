#include "cuda_ops.h"
#include "mhc_pre_kernel.cuh"

namespace dsv4::cuda {

int hc_head(const MhcPreParams& p, void* stream) {
  return launch_mhc_pre<true>(p, static_cast<cudaStream_t>(stream));
}

}  // namespace dsv4::cuda
