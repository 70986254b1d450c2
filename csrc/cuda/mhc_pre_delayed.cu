#include "cuda_ops.h"
#include "mhc_pre_kernel.cuh"

namespace dsv4::cuda {

int mhc_pre_delayed(const MhcPreDelayedParams& p, void* stream) {
  return launch_mhc_pre<false, true>(p, static_cast<cudaStream_t>(stream));
}

}  // namespace dsv4::cuda
