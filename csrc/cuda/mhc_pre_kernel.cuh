// mhc_pre / hc_head / mhc_pre_delayed on CUDA: one block per token. Pass 1 reads the token's n*D
// residual (the delayed op's broadcast entry: its D-wide x) once and accumulates the M projections
// and the sum of squares in registers (fp32 FMAs, no TF32); a fixed-order block sum gives G and S;
// one thread runs the shared per-token math (mixes, Sinkhorn); pass 2 (and 3 with the fused RMSNorm)
// re-reads the token, now L2-resident, for the weighted sum. The delayed op (kDelayed) stores the new
// pre weights and collapses with the carried pre_mix instead, or copies stream 0 when there is none.
#pragma once

#include "../common/mhc_math.h"
#include "../common/op_params.h"
#include "cuda_common.cuh"

namespace dsv4::cuda {

constexpr int kPreThreads = 256;

template <int N, bool kHead>
struct PreShape {
  static constexpr int kRows = kHead ? N : N * (N + 2);  // projections per token
};

// y[d0 .. d0+8) = sum_i pre[i] * x[i, d]: the stream collapse of 8 consecutive d (vector path) or 1.
template <int N, int kW>
__device__ __forceinline__ void collapse(const bf16* x, int64_t hidden, int64_t d0, const float* pre,
                                         float (&y)[kW]) {
#pragma unroll
  for (int j = 0; j < kW; ++j) y[j] = 0.0f;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    float v[kW];
    if constexpr (kW == 8) {
      load_bf16x8(x + i * hidden + d0, v);
    } else {
      v[0] = to_float(x[i * hidden + d0]);
    }
#pragma unroll
    for (int j = 0; j < kW; ++j) y[j] += pre[i] * v[j];
  }
}

template <int N, bool kHead, bool kDelayed, bool kVec>
__global__ void __launch_bounds__(kPreThreads) mhc_pre_kernel(MhcPreDelayedParams dp) {
  const MhcPreParams& p = dp.pre;
  constexpr int kRows = PreShape<N, kHead>::kRows;
  constexpr int kW = kVec ? 8 : 1;
  __shared__ float scratch[(kRows + 1) * (kPreThreads / kWarp)];
  __shared__ float sums[kRows + 1];
  __shared__ float pre[N];
  __shared__ float norm_scale;

  const int64_t hidden = p.hidden;
  const bool broadcast = kDelayed && dp.x != nullptr;
  const int64_t k_total = broadcast ? hidden : N * hidden;  // projection width
  // Without a carried pre_mix the delayed collapse is stream 0 alone (weight 1: exact).
  const bool identity = kDelayed && dp.pre_mix == nullptr;
  for (int64_t t = blockIdx.x; t < p.tokens; t += gridDim.x) {
    const bf16* x = p.residual + t * N * hidden;
    const bf16* src = broadcast ? dp.x + t * hidden : x;

    // Pass 1: projections and sum of squares.
    float acc[kRows + 1];
#pragma unroll
    for (int m = 0; m <= kRows; ++m) acc[m] = 0.0f;
    for (int64_t k = int64_t(threadIdx.x) * kW; k < k_total; k += int64_t(kPreThreads) * kW) {
      float v[kW];
      if constexpr (kVec) {
        load_bf16x8(src + k, v);
      } else {
        v[0] = to_float(src[k]);
      }
#pragma unroll
      for (int j = 0; j < kW; ++j) acc[kRows] += v[j] * v[j];
#pragma unroll
      for (int m = 0; m < kRows; ++m) {
        const float* f = p.fn + m * k_total + k;
        if constexpr (kVec) {
          const float4 a = __ldg(reinterpret_cast<const float4*>(f));
          const float4 b = __ldg(reinterpret_cast<const float4*>(f) + 1);
          acc[m] += v[0] * a.x + v[1] * a.y + v[2] * a.z + v[3] * a.w + v[4] * b.x + v[5] * b.y +
                    v[6] * b.z + v[7] * b.w;
        } else {
          acc[m] += v[0] * __ldg(f);
        }
      }
    }
    block_sum(acc, scratch, sums);

    // Per-token math: one thread, the same code as the CPU backend.
    if (threadIdx.x == 0) {
      float w[N];
      mhc_token_weights<N, kHead>(sums, sums[kRows], k_total, p.hc_scale, p.hc_base, p.scalars,
                                  kHead ? nullptr : p.post_mix + t * N,
                                  kHead ? nullptr : p.comb_mix + t * N * N, w);
#pragma unroll
      for (int i = 0; i < N; ++i) {
        if constexpr (kDelayed) {
          dp.new_pre[t * N + i] = w[i];
          pre[i] = identity ? 1.0f : dp.pre_mix[t * N + i];
        } else {
          pre[i] = w[i];
        }
      }
    }
    __syncthreads();

    // Pass 2 (fused RMSNorm only): sum of squares of the unrounded y.
    bf16* out = p.layer_input + t * hidden;
    const bf16* weight = kHead ? nullptr : p.norm_weight;
    if (weight != nullptr) {
      float ss[1] = {0.0f};
      for (int64_t d = int64_t(threadIdx.x) * kW; d < hidden; d += int64_t(kPreThreads) * kW) {
        float y[kW];
        if (identity) {
          collapse<1, kW>(x, hidden, d, pre, y);
        } else {
          collapse<N, kW>(x, hidden, d, pre, y);
        }
#pragma unroll
        for (int j = 0; j < kW; ++j) ss[0] += y[j] * y[j];
      }
      block_sum(ss, scratch, &norm_scale);
      if (threadIdx.x == 0) norm_scale = rms_factor(norm_scale, hidden, p.scalars.norm_eps);
      __syncthreads();
    }

    // Pass 3: layer_input.
    for (int64_t d = int64_t(threadIdx.x) * kW; d < hidden; d += int64_t(kPreThreads) * kW) {
      float y[kW];
      if (identity) {
        collapse<1, kW>(x, hidden, d, pre, y);
      } else {
        collapse<N, kW>(x, hidden, d, pre, y);
      }
      if (weight != nullptr) {
#pragma unroll
        for (int j = 0; j < kW; ++j) y[j] = to_float(to_bf16(y[j])) * norm_scale * to_float(weight[d + j]);
      }
      if constexpr (kVec) {
        store_bf16x8(out + d, y);
      } else {
        out[d] = to_bf16(y[0]);
      }
    }
    __syncthreads();  // pre / norm_scale are rewritten by the next token
  }
}

template <bool kHead, bool kDelayed = false>
int launch_mhc_pre(const MhcPreDelayedParams& dp, cudaStream_t stream) {
  const MhcPreParams& p = dp.pre;
  const bool vec = p.hidden % 8 == 0 && aligned16(p.residual) && aligned16(p.fn) &&
                   aligned16(p.layer_input) && (p.norm_weight == nullptr || aligned16(p.norm_weight)) &&
                   (dp.x == nullptr || aligned16(dp.x));
  const unsigned grid = unsigned(p.tokens < 65535LL * 32 ? p.tokens : 65535LL * 32);
  return dispatch_hc_mult(p.hc_mult, [&](auto n) {
    constexpr int N = decltype(n)::value;
    if (vec) {
      mhc_pre_kernel<N, kHead, kDelayed, true><<<grid, kPreThreads, 0, stream>>>(dp);
    } else {
      mhc_pre_kernel<N, kHead, kDelayed, false><<<grid, kPreThreads, 0, stream>>>(dp);
    }
    return int(cudaGetLastError());
  });
}

template <bool kHead>
int launch_mhc_pre(const MhcPreParams& p, cudaStream_t stream) {
  return launch_mhc_pre<kHead>(MhcPreDelayedParams{p, nullptr, nullptr, nullptr}, stream);
}

}  // namespace dsv4::cuda
