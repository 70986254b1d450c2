// mhc_post on CUDA: out[j] = post[j] * x + sum_i comb[i, j] * R[i] (comb applied transposed, §3.6) over
// (token, d). Also the post half of the general fused op. The product and the FMA chain are explicit
// intrinsics so that no contraction choice of the compiler can differ from the other kernels that
// recompute the same streams (the fused pipeline, mhc_post_hc_head): bitwise equal.
//
// A warp takes a slice of one token: kU chunks of 8 d a lane (32 kU chunks), all of its loads (x and the
// n source streams of every chunk) issued before any arithmetic, the token's mixes loaded once a slice
// (float4s where aligned). kU = 2 (512 d a slice) from kPostWideTokens tokens on, 1 below, where more
// warps make the call's one round trip shorter. One thread an 8-d chunk, as before session 29, loaded the
// n + n^2 mixes per chunk as scalars and divided 64-bit per chunk: on the H200 (4.17 TB/s) it ran at 89-90 %
// of the copy rate (321-327 us at T = 16384, D = 4096; FlashInfer's post 292). Now 283 us (102 %), D = 7168
// 559-569 -> 490 us, T = 1 2.1-2.2 -> 1.35-1.39 us (benchmarks/NOTES.md, session 2026-11-28 (29)). The HIP
// kernel (csrc/hip/mhc_post_kernel.h) has the same decomposition: a wave a (token, segment).
#pragma once

#include "../common/op_params.h"
#include "cuda_common.cuh"

namespace dsv4::cuda {

constexpr int kPostThreads = 128;
constexpr int64_t kPostWideTokens = 256;  // slices of 2 chunks a lane from here on (of 1 below)

// The token's n post weights and n x n comb entries (uniform over the warp: broadcast loads).
template <int N>
__device__ __forceinline__ void load_post_mixes(const float* post, const float* comb, bool vec4, float (&pm)[N],
                                                float (&cm)[N * N]) {
  if constexpr (N % 4 == 0) {
    if (vec4) {
#pragma unroll
      for (int q = 0; q < N / 4; ++q) {
        const float4 v = __ldg(reinterpret_cast<const float4*>(post) + q);
        pm[4 * q] = v.x, pm[4 * q + 1] = v.y, pm[4 * q + 2] = v.z, pm[4 * q + 3] = v.w;
      }
#pragma unroll
      for (int q = 0; q < N * N / 4; ++q) {
        const float4 v = __ldg(reinterpret_cast<const float4*>(comb) + q);
        cm[4 * q] = v.x, cm[4 * q + 1] = v.y, cm[4 * q + 2] = v.z, cm[4 * q + 3] = v.w;
      }
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < N; ++j) pm[j] = __ldg(post + j);
#pragma unroll
  for (int q = 0; q < N * N; ++q) cm[q] = __ldg(comb + q);
}

// kVec: 8 d a chunk by 16-byte words (hidden % 8 == 0, 16-byte aligned rows); otherwise one d a chunk.
// slices: ceil(chunks / (32 kU)) a token.
template <int N, bool kVec, int kU>
__global__ void __launch_bounds__(kPostThreads) mhc_post_kernel(MhcPostParams p, int64_t slices, bool mix_vec4) {
  constexpr int kW = kVec ? 8 : 1;
  using Word = std::conditional_t<kVec, Bf16x8, bf16>;
  const int64_t hidden = p.hidden;
  const int64_t chunks = hidden / kW;
  const int lane = threadIdx.x % kWarp;
  const int64_t units = p.tokens * slices;
  const int64_t warps = int64_t(gridDim.x) * (kPostThreads / kWarp);
  pdl_begin();
  for (int64_t u = int64_t(blockIdx.x) * (kPostThreads / kWarp) + threadIdx.x / kWarp; u < units; u += warps) {
    const int64_t t = u / slices;
    const int64_t c0 = (u - t * slices) * (kWarp * kU) + lane;
    const Word* xw = reinterpret_cast<const Word*>(p.x + t * hidden);
    const Word* rw = reinterpret_cast<const Word*>(p.residual + t * N * hidden);
    Word xv[kU], rv[kU][N];
#pragma unroll
    for (int q = 0; q < kU; ++q) {
      const int64_t c = c0 + q * kWarp;
      if (c < chunks) {
        xv[q] = xw[c];
#pragma unroll
        for (int i = 0; i < N; ++i) rv[q][i] = rw[i * chunks + c];
      }
    }
    float pm[N], cm[N * N];
    load_post_mixes<N>(p.post_mix + t * N, p.comb_mix + t * N * N, mix_vec4, pm, cm);
    Word* ow = reinterpret_cast<Word*>(p.out + t * N * hidden);
#pragma unroll
    for (int q = 0; q < kU; ++q) {
      const int64_t c = c0 + q * kWarp;
      if (c >= chunks) break;
      float acc[N][kW];
      float xf[kW];
      if constexpr (kVec) {
#pragma unroll
        for (int e = 0; e < kW; ++e) xf[e] = to_float(xv[q].v[e]);
      } else {
        xf[0] = to_float(xv[q]);
      }
#pragma unroll
      for (int j = 0; j < N; ++j) {
#pragma unroll
        for (int e = 0; e < kW; ++e) acc[j][e] = __fmul_rn(pm[j], xf[e]);
      }
#pragma unroll
      for (int i = 0; i < N; ++i) {
        float rf[kW];
        if constexpr (kVec) {
#pragma unroll
          for (int e = 0; e < kW; ++e) rf[e] = to_float(rv[q][i].v[e]);
        } else {
          rf[0] = to_float(rv[q][i]);
        }
#pragma unroll
        for (int j = 0; j < N; ++j) {
#pragma unroll
          for (int e = 0; e < kW; ++e) acc[j][e] = __fmaf_rn(cm[i * N + j], rf[e], acc[j][e]);
        }
      }
#pragma unroll
      for (int j = 0; j < N; ++j) {
        if constexpr (kVec) {
          store_bf16x8(reinterpret_cast<bf16*>(ow + j * chunks + c), acc[j]);
        } else {
          ow[j * chunks + c] = to_bf16(acc[j][0]);
        }
      }
    }
  }
}

inline int launch_mhc_post(const MhcPostParams& p, cudaStream_t stream) {
  const bool vec = p.hidden % 8 == 0 && aligned16(p.x) && aligned16(p.residual) && aligned16(p.out);
  const int64_t chunks = vec ? p.hidden / 8 : p.hidden;
  const bool wide = p.tokens >= kPostWideTokens;
  const int64_t per_slice = kWarp * (wide ? 2 : 1);
  const int64_t slices = (chunks + per_slice - 1) / per_slice;
  const bool mix_vec4 = aligned16(p.post_mix) && aligned16(p.comb_mix);
  const unsigned grid = grid_for(p.tokens * slices, kPostThreads / kWarp);
  return dispatch_hc_mult(p.hc_mult, [&](auto n) {
    constexpr int N = decltype(n)::value;
    LaunchAttrs attr;
    const cudaLaunchConfig_t cfg = launch_config(grid, kPostThreads, 0, 0, stream, attr);
    const auto kernel = vec ? (wide ? mhc_post_kernel<N, true, 2> : mhc_post_kernel<N, true, 1>)
                            : (wide ? mhc_post_kernel<N, false, 2> : mhc_post_kernel<N, false, 1>);
    return int(cudaLaunchKernelEx(&cfg, kernel, p, slices, mix_vec4));
  });
}

}  // namespace dsv4::cuda
