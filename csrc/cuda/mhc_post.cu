// mhc_post on CUDA: elementwise over (token, 8 consecutive d). Each item reads x and the n source
// streams once and writes the n destination streams: out[j] = post[j] * x + sum_i comb[i, j] * R[i].
#include "cuda_common.cuh"
#include "cuda_ops.h"
#include "mhc_post_kernel.cuh"

namespace dsv4::cuda {

int mhc_post(const MhcPostParams& p, void* stream) {
  return launch_mhc_post(p, static_cast<cudaStream_t>(stream));
}

}  // namespace dsv4::cuda
