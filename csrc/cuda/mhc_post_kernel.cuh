// mhc_post on CUDA: elementwise over (token, 8 consecutive d). Each item reads x and the n source
// streams once and writes the n destination streams: out[j] = post[j] * x + sum_i comb[i, j] * R[i]
// (comb applied transposed, §3.6). Also the post half of the general fused op. The product and the FMA
// chain are explicit intrinsics so that no contraction choice of the compiler can differ from the
// other kernels that recompute the same streams (the fused pipeline, mhc_post_hc_head): bitwise equal.
#pragma once

#include "../common/op_params.h"
#include "cuda_common.cuh"

namespace dsv4::cuda {

constexpr int kPostThreads = 256;

template <int N, bool kVec>
__global__ void __launch_bounds__(kPostThreads) mhc_post_kernel(MhcPostParams p) {
  constexpr int kW = kVec ? 8 : 1;
  const int64_t hidden = p.hidden;
  const int64_t chunks = hidden / kW;  // kVec: hidden % 8 == 0
  const int64_t items = p.tokens * chunks;
  pdl_begin();
  for (int64_t item = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; item < items;
       item += int64_t(gridDim.x) * blockDim.x) {
    const int64_t t = item / chunks;
    const int64_t d = (item - t * chunks) * kW;
    const bf16* r = p.residual + t * N * hidden + d;
    float acc[N][kW];
    float xv[kW];
    if constexpr (kVec) {
      load_bf16x8(p.x + t * hidden + d, xv);
    } else {
      xv[0] = to_float(p.x[t * hidden + d]);
    }
    const float* post = p.post_mix + t * N;
    const float* comb = p.comb_mix + t * N * N;
#pragma unroll
    for (int j = 0; j < N; ++j) {
      const float pj = __ldg(post + j);
#pragma unroll
      for (int e = 0; e < kW; ++e) acc[j][e] = __fmul_rn(pj, xv[e]);
    }
#pragma unroll
    for (int i = 0; i < N; ++i) {
      float rv[kW];
      if constexpr (kVec) {
        load_bf16x8(r + i * hidden, rv);
      } else {
        rv[0] = to_float(r[i * hidden]);
      }
#pragma unroll
      for (int j = 0; j < N; ++j) {
        const float c = __ldg(comb + i * N + j);
#pragma unroll
        for (int e = 0; e < kW; ++e) acc[j][e] = __fmaf_rn(c, rv[e], acc[j][e]);
      }
    }
    bf16* out = p.out + t * N * hidden + d;
#pragma unroll
    for (int j = 0; j < N; ++j) {
      if constexpr (kVec) {
        store_bf16x8(out + j * hidden, acc[j]);
      } else {
        out[j * hidden] = to_bf16(acc[j][0]);
      }
    }
  }
}

inline int launch_mhc_post(const MhcPostParams& p, cudaStream_t stream) {
  const bool vec = p.hidden % 8 == 0 && aligned16(p.x) && aligned16(p.residual) && aligned16(p.out);
  const int64_t items = p.tokens * (vec ? p.hidden / 8 : p.hidden);
  const unsigned grid = grid_for(items, kPostThreads);
  return dispatch_hc_mult(p.hc_mult, [&](auto n) {
    constexpr int N = decltype(n)::value;
    LaunchAttrs attr;
    const cudaLaunchConfig_t cfg = launch_config(grid, kPostThreads, 0, 0, stream, attr);
    return int(vec ? cudaLaunchKernelEx(&cfg, mhc_post_kernel<N, true>, p)
                   : cudaLaunchKernelEx(&cfg, mhc_post_kernel<N, false>, p));
  });
}

}  // namespace dsv4::cuda
