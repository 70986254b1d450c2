// mhc_fused_post_pre_delayed on CUDA (DeepSeek-V4.1's seam), the general path: any n in 1..8, any D,
// any alignment.
//
// Design. The op is mhc_post of one sub-layer, then mhc_pre_delayed of the next on the stored bf16
// streams: per token it must read x (2D bytes) and the residual (2nD) and write residual_out (2nD) and
// layer_input (2D), plus the n(n+3) fp32 mixes. The pre's projection needs the rounded new streams on
// all n(n+2) rows of fn ([M3, n*D] fp32, L2-resident) but its collapse does not: it uses the carried
// pre_mix, known before the projection starts, so only the mixes wait for the block reduction. One CTA
// of 256 threads owns a tile of kTokens consecutive tokens (4 for n = 1, 2 for n <= 4, 1 above: per
// token a thread holds n(n+2) + 1 accumulators; grid-stride over tiles); each thread owns the d-chunks
// c = tid, tid + 256, ... of the tile (8 consecutive d of all n streams with 16-byte accesses, or 1 d
// when D % 8 != 0 or a pointer is unaligned), so every pass touches the same addresses from the same
// thread:
//   Pass 1 reads x and the residual (HBM, once), applies mhc_post in registers one destination stream
//     at a time (post_head::post_project_tile, shared with mhc_post_hc_head: mhc_post_kernel.cuh's FMA
//     order, so residual_out is bitwise mhc_post's), stores the rounded stream to residual_out and accumulates, per token, its
//     projections on every fn row and its sum of squares: the pre projects exactly the stored values
//     (spec §3.7). Each fn value loaded serves the kTokens tokens of the tile.
//   A fixed-order block sum gives G and S; thread tt runs the shared per-token math (mhc_math.h) for
//     token tt: post_mix, comb_mix and the new pre weights are stored; the collapse weights are the
//     carried pre_mix (or stream 0 alone, weight 1, without one).
//   Pass 2 re-reads the thread's own residual_out stores (L1/L2, plain loads: this kernel wrote them),
//     collapses them and stores bf16(y); with the fused RMSNorm it sums y^2 of the fp32 y (§3.5).
//   Pass 3 (fused RMSNorm only) reads back the thread's own pass-2 stores and scales them.
// 64-bit offsets throughout; no allocation, no host sync; the launch is graph-capturable. The reduction
// order depends only on (n, D), so results are batch-invariant. Registers (sm_90a, ptxas -v): 48 to 128
// for n <= 7, about 215 for n = 8 (81 accumulators); three variants keep a few words of spill, as the
// general mhc_pre kernel does one (n = 3 and 7 vectorised: 12 and 24 bytes, n = 5 scalar: 52 bytes).
#pragma once

#include "../common/mhc_math.h"
#include "../common/op_params.h"
#include "cuda_common.cuh"
#include "mhc_post_hc_head_kernel.cuh"  // post_head: pass 1 (post + projection), the stored-row norm

namespace dsv4::cuda {

namespace fused_delayed {

constexpr int kThreads = 256;

template <int N>
constexpr int tokens_per_tile() {
  return N == 1 ? 4 : N <= 4 ? 2 : 1;
}

using post_head::load_packed;
using post_head::pack;
using post_head::Packed;
using post_head::store_packed;
using post_head::unpack;

// y = sum_i w[i] R[i] over the M streams of one chunk of residual_out `r` (stream 0), fp32 unrounded.
template <int M, int kW>
__device__ __forceinline__ void collapse(const bf16* r, int64_t hidden, const float* w, float (&y)[kW]) {
#pragma unroll
  for (int e = 0; e < kW; ++e) y[e] = 0.0f;
#pragma unroll
  for (int i = 0; i < M; ++i) {
    float v[kW];
    unpack<kW>(load_packed<kW, false>(r + i * hidden), v);  // this thread's own pass-1 store
#pragma unroll
    for (int e = 0; e < kW; ++e) y[e] += w[i] * v[e];
  }
}

template <int N, bool kVec>
__global__ void __launch_bounds__(kThreads) mhc_fused_post_pre_delayed_kernel(MhcFusedDelayedParams p) {
  constexpr int kW = kVec ? 8 : 1;
  constexpr int kT = tokens_per_tile<N>();
  constexpr int kRows = N * (N + 2);
  constexpr int kSums = kRows + 1;  // the projections and the sum of squares
  __shared__ float scratch[kT * kSums * (kThreads / kWarp)];
  __shared__ float sums[kT * kSums];
  __shared__ float weights[kT * N];

  const MhcPostParams& q = p.post;
  const MhcPreParams& h = p.pre.pre;
  const float* carried = p.pre.pre_mix;
  const bool identity = carried == nullptr;  // uniform
  const int64_t hidden = h.hidden, k_total = int64_t(N) * hidden;
  const int64_t chunks = hidden / kW;  // kVec: hidden % 8 == 0
  const int64_t tiles = (h.tokens + kT - 1) / kT;
  const bf16* norm_weight = h.norm_weight;

  for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const int64_t t0 = tile * kT;
    const int live = int(h.tokens - t0 < kT ? h.tokens - t0 : kT);

    // Pass 1: post, residual_out, projections and sums of squares of the stored (rounded) streams.
    float acc[kT * kSums];
    post_head::post_project_tile<N, kRows, kT, kW, true>(q, h.fn, t0, live, acc);
    block_sum(acc, scratch, sums);

    // Per-token math, the same code as the CPU backend: thread tt owns token t0 + tt.
    if (int(threadIdx.x) < live) {
      const int64_t t = t0 + threadIdx.x;
      const float* g = sums + threadIdx.x * kSums;
      float w[N];
      mhc_token_weights<N, false>(g, g[kRows], k_total, h.hc_scale, h.hc_base, h.scalars, h.post_mix + t * N,
                                  h.comb_mix + t * N * N, w);
#pragma unroll
      for (int i = 0; i < N; ++i) {
        p.pre.new_pre[t * N + i] = w[i];
        weights[threadIdx.x * N + i] = identity ? 1.0f : carried[t * N + i];
      }
    }
    __syncthreads();

    // Pass 2: layer_input = bf16(y) with the carried weights; the fused norm's sums of squares come
    // from the fp32 y.
    float ss[kT];
#pragma unroll
    for (int tt = 0; tt < kT; ++tt) ss[tt] = 0.0f;
    for (int64_t c = threadIdx.x; c < chunks; c += kThreads) {
      const int64_t d = c * kW;
#pragma unroll
      for (int tt = 0; tt < kT; ++tt) {
        if (tt >= live) break;
        const int64_t t = t0 + tt;
        float y[kW];
        if (identity) {
          collapse<1, kW>(q.out + t * k_total + d, hidden, weights + tt * N, y);
        } else {
          collapse<N, kW>(q.out + t * k_total + d, hidden, weights + tt * N, y);
        }
#pragma unroll
        for (int e = 0; e < kW; ++e) ss[tt] += y[e] * y[e];
        store_packed<kW>(h.layer_input + t * hidden + d, pack<kW>(y));
      }
    }

    // Pass 3 (fused RMSNorm): layer_input = bf16(f(bf16(y)) * rsqrt(ss / D + eps) * w), §3.5.
    if (norm_weight != nullptr) {
      block_sum(ss, scratch, sums);
      post_head::norm_stored_tile<kT, kW>(h.layer_input, hidden, t0, live, sums, norm_weight, h.scalars.norm_eps);
    }
    __syncthreads();  // weights and sums are rewritten by the next tile
  }
}

inline int launch(const MhcFusedDelayedParams& p, cudaStream_t stream) {
  const MhcPreParams& h = p.pre.pre;
  const bool vec = post_head::tile_vec(p.post, h);
  return dispatch_hc_mult(h.hc_mult, [&](auto n) {
    constexpr int N = decltype(n)::value;
    const unsigned grid = grid_for(h.tokens, tokens_per_tile<N>());
    if (vec) {
      mhc_fused_post_pre_delayed_kernel<N, true><<<grid, kThreads, 0, stream>>>(p);
    } else {
      mhc_fused_post_pre_delayed_kernel<N, false><<<grid, kThreads, 0, stream>>>(p);
    }
    return int(cudaGetLastError());
  });
}

}  // namespace fused_delayed

}  // namespace dsv4::cuda
