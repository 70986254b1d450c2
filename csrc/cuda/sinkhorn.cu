// Standalone Sinkhorn: one thread per n x n matrix, the shared per-token routine.
#include "../common/mhc_math.h"
#include "cuda_common.cuh"
#include "cuda_ops.h"

namespace dsv4::cuda {

namespace {

template <int N>
__global__ void sinkhorn_kernel(SinkhornParams p) {
  for (int64_t b = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; b < p.batch;
       b += int64_t(gridDim.x) * blockDim.x) {
    float c[N * N];
#pragma unroll
    for (int e = 0; e < N * N; ++e) c[e] = p.logits[b * N * N + e];
    sinkhorn_inplace(c, N, p.repeat, p.eps);
#pragma unroll
    for (int e = 0; e < N * N; ++e) p.out[b * N * N + e] = c[e];
  }
}

}  // namespace

int sinkhorn(const SinkhornParams& p, void* stream) {
  constexpr int kThreads = 128;
  return dispatch_hc_mult(p.n, [&](auto n) {
    sinkhorn_kernel<decltype(n)::value>
        <<<grid_for(p.batch, kThreads), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(p);
    return int(cudaGetLastError());
  });
}

}  // namespace dsv4::cuda
