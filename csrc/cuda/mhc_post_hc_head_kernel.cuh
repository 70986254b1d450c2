// mhc_post_hc_head on CUDA (spec §4.6), the general path: any n in 1..8, any D, any alignment.
//
// Design. Per token the floor is reading x (2D bytes) and the residual (2nD) and writing the output
// (2D), plus the stash (2nD) when streams_out is given; hc_head needs the projection of the new
// streams on all n rows of fn ([n, n*D] fp32) before its collapse can start, so the collapse is a
// second pass. One CTA of 256 threads owns a tile of kTokens consecutive tokens (4 for n <= 4, 2
// above; grid-stride over tiles); each thread owns the d-chunks c = tid, tid + 256, ... of the tile
// (a chunk is 8 consecutive d of all n streams with 16-byte accesses, or 1 d when D % 8 != 0 or a
// pointer is unaligned), so every pass touches the same addresses from the same thread:
//   Pass 1 reads x and the residual (HBM, once; L1 for the later streams), applies mhc_post in
//     registers one destination stream at a time (the same fp32 FMA order as mhc_post_kernel.cuh,
//     so the streams are bitwise mhc_post's), stores them to streams_out when given, and
//     accumulates per token the n projections and the sum of squares of the bf16-rounded streams.
//     Each fn value loaded serves the kTokens tokens of the tile, which divides fn's L2 traffic
//     (n^2 D 4 bytes per token otherwise) by kTokens. One stream at a time keeps the registers
//     under 128, so two CTAs share an SM and one streams from HBM while the other is in pass 2.
//   A fixed-order block sum gives G and S; thread tt runs hc_head's per-token math (mhc_math.h).
//   Pass 2 re-reads x and the residual of the tile (L2: just read) and recomputes the same rounded
//     streams, collapses them and stores bf16(y); with the final norm it sums yb^2 of the rounded y.
//   Pass 3 (final RMSNorm only) reads back the thread's own pass-2 stores and scales them.
// 64-bit offsets throughout; no allocation, no host sync; the launch is graph-capturable. The
// reduction order depends only on (n, D), so results are batch-invariant.
#pragma once

#include "../common/mhc_math.h"
#include "../common/op_params.h"
#include "cuda_common.cuh"

namespace dsv4::cuda {

namespace post_head {

constexpr int kThreads = 256;

template <int N>
constexpr int tokens_per_tile() {
  return N <= 4 ? 4 : 2;
}

// kW bf16 values of one stream chunk, kept packed (two per 32-bit word) while they wait in registers.
template <int kW>
struct Packed {
  uint32_t w[(kW + 1) / 2];
};

// kReadOnly: through the read-only cache (inputs); false for data this kernel wrote.
template <int kW, bool kReadOnly = true>
__device__ __forceinline__ Packed<kW> load_packed(const bf16* src) {
  Packed<kW> p;
  if constexpr (kW == 8) {
    const auto* q = reinterpret_cast<const uint4*>(src);
    const uint4 v = kReadOnly ? __ldg(q) : *q;
    p.w[0] = v.x, p.w[1] = v.y, p.w[2] = v.z, p.w[3] = v.w;
  } else {
    p.w[0] = src->bits;
  }
  return p;
}

template <int kW>
__device__ __forceinline__ void store_packed(bf16* dst, const Packed<kW>& p) {
  if constexpr (kW == 8) {
    *reinterpret_cast<uint4*>(dst) = make_uint4(p.w[0], p.w[1], p.w[2], p.w[3]);
  } else {
    dst->bits = uint16_t(p.w[0]);
  }
}

template <int kW>
__device__ __forceinline__ void unpack(const Packed<kW>& p, float (&v)[kW]) {
#pragma unroll
  for (int e = 0; e < kW; ++e) v[e] = __uint_as_float(e & 1 ? p.w[e / 2] & 0xffff0000u : p.w[e / 2] << 16);
}

template <int kW>
__device__ __forceinline__ Packed<kW> pack(const float (&v)[kW]) {
  Packed<kW> p;
#pragma unroll
  for (int k = 0; k < (kW + 1) / 2; ++k) {
    const uint32_t lo = to_bf16(v[2 * k]).bits;
    const uint32_t hi = 2 * k + 1 < kW ? uint32_t(to_bf16(v[2 * k + 1]).bits) : 0u;
    p.w[k] = lo | hi << 16;
  }
  return p;
}

// Destination stream j of mhc_post for token t at chunk d, rounded once (the stored value):
// bf16(post[j] x + sum_i comb[i][j] R[i]) in mhc_post_kernel's order (a product, then one FMA per
// source stream), so the streams are bitwise mhc_post's. The kernels below take one stream at a
// time: x and the n sources of a chunk are re-read per stream, from L1 after the first.
template <int N, int kW>
__device__ __forceinline__ Packed<kW> post_stream(const MhcPostParams& q, int64_t t, int64_t d, int j) {
  const int64_t hidden = q.hidden;
  float acc[kW];
  unpack<kW>(load_packed<kW>(q.x + t * hidden + d), acc);
  const float pj = __ldg(q.post_mix + t * N + j);
#pragma unroll
  for (int e = 0; e < kW; ++e) acc[e] = pj * acc[e];
  const float* comb = q.comb_mix + t * N * N + j;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    const float c = __ldg(comb + i * N);
    float rv[kW];
    unpack<kW>(load_packed<kW>(q.residual + (t * N + i) * hidden + d), rv);
#pragma unroll
    for (int e = 0; e < kW; ++e) acc[e] = __fmaf_rn(c, rv[e], acc[e]);
  }
  return pack<kW>(acc);
}

template <int kW>
__device__ __forceinline__ void load_fn(const float* src, float (&f)[kW]) {
  if constexpr (kW == 8) {
    const float4 a = __ldg(reinterpret_cast<const float4*>(src));
    const float4 b = __ldg(reinterpret_cast<const float4*>(src) + 1);
    f[0] = a.x, f[1] = a.y, f[2] = a.z, f[3] = a.w, f[4] = b.x, f[5] = b.y, f[6] = b.z, f[7] = b.w;
  } else {
    f[0] = __ldg(src);
  }
}

// Pass 1 over a tile of kT tokens from t0 (the first `live` real), this thread's chunks: each destination
// stream of mhc_post, rounded once (post_stream; stored to q.out when not null, always with kStore: no
// branch, which ptxas schedules better), its projections on
// the kRows rows of fn ([kRows, N*D]) and its sum of squares, accumulated per token into
// acc[tt * (kRows + 1) + m] (the sum of squares last). One stream at a time (not unrolled): the tile's
// chunk of stream j is all that waits in registers. Shared with mhc_fused_post_pre_delayed_kernel.cuh.
template <int N, int kRows, int kT, int kW, bool kStore = false>
__device__ __forceinline__ void post_project_tile(const MhcPostParams& q, const float* fn, int64_t t0, int live,
                                                  float (&acc)[kT * (kRows + 1)]) {
  constexpr int kSums = kRows + 1;
  const int64_t hidden = q.hidden, k_total = int64_t(N) * hidden;
  const int64_t chunks = hidden / kW;  // kW == 8: hidden % 8 == 0
#pragma unroll
  for (int s = 0; s < kT * kSums; ++s) acc[s] = 0.0f;
  for (int64_t c = threadIdx.x; c < chunks; c += kThreads) {
    const int64_t d = c * kW;
#pragma unroll 1
    for (int j = 0; j < N; ++j) {
      float v[kT][kW];
#pragma unroll
      for (int tt = 0; tt < kT; ++tt) {
        if (tt < live) {
          const int64_t t = t0 + tt;
          const Packed<kW> s = post_stream<N, kW>(q, t, d, j);
          if (kStore || q.out != nullptr) store_packed<kW>(q.out + (t * N + j) * hidden + d, s);
          unpack<kW>(s, v[tt]);
        } else {
#pragma unroll
          for (int e = 0; e < kW; ++e) v[tt][e] = 0.0f;
        }
#pragma unroll
        for (int e = 0; e < kW; ++e) acc[tt * kSums + kRows] += v[tt][e] * v[tt][e];
      }
      const float* row = fn + j * hidden + d;
#pragma unroll
      for (int m = 0; m < kRows; ++m) {
        float f[kW];
        load_fn<kW>(row + m * k_total, f);
#pragma unroll
        for (int tt = 0; tt < kT; ++tt)
#pragma unroll
          for (int e = 0; e < kW; ++e) acc[tt * kSums + m] += v[tt][e] * f[e];
      }
    }
  }
}

// The last pass of a norm over the tile's rows of `out` [T, D] (this thread's own bf16 stores of the
// pass before, read back with plain loads): out = bf16(yb * rsqrt(sums[tt] / D + eps) * w).
template <int kT, int kW>
__device__ __forceinline__ void norm_stored_tile(bf16* out, int64_t hidden, int64_t t0, int live, const float* sums,
                                                 const bf16* weight, float eps) {
  for (int64_t c = threadIdx.x; c < hidden / kW; c += kThreads) {
    const int64_t d = c * kW;
    float nw[kW];
    unpack<kW>(load_packed<kW>(weight + d), nw);
#pragma unroll
    for (int tt = 0; tt < kT; ++tt) {
      if (tt >= live) break;
      const float rs = rms_factor(sums[tt], hidden, eps);
      bf16* row = out + (t0 + tt) * hidden + d;
      float yb[kW];
      unpack<kW>(load_packed<kW, false>(row), yb);
#pragma unroll
      for (int e = 0; e < kW; ++e) yb[e] = yb[e] * rs * nw[e];
      store_packed<kW>(row, pack<kW>(yb));
    }
  }
}

template <int N, bool kVec>
__global__ void __launch_bounds__(kThreads, 2) mhc_post_hc_head_kernel(MhcPostHeadParams p) {
  constexpr int kW = kVec ? 8 : 1;
  constexpr int kT = tokens_per_tile<N>();
  constexpr int kSums = N + 1;  // n projections and the sum of squares
  __shared__ float scratch[kT * kSums * (kThreads / kWarp)];
  __shared__ float sums[kT * kSums];
  __shared__ float weights[kT * N];

  const MhcPostParams& q = p.post;
  const MhcPreParams& h = p.pre;
  const int64_t hidden = h.hidden, k_total = int64_t(N) * hidden;
  const int64_t chunks = hidden / kW;  // kVec: hidden % 8 == 0
  const int64_t tiles = (h.tokens + kT - 1) / kT;
  const bf16* norm_weight = h.norm_weight;

  for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const int64_t t0 = tile * kT;
    const int live = int(h.tokens - t0 < kT ? h.tokens - t0 : kT);

    // Pass 1: post, stash, projections and sums of squares of the rounded streams.
    float acc[kT * kSums];
    post_project_tile<N, N, kT, kW>(q, h.fn, t0, live, acc);
    block_sum(acc, scratch, sums);

    // hc_head's per-token math, the same code as the CPU backend: thread tt owns token t0 + tt.
    if (int(threadIdx.x) < live) {
      const float* g = sums + threadIdx.x * kSums;
      float w[N];
      mhc_token_weights<N, true>(g, g[N], k_total, h.hc_scale, h.hc_base, h.scalars, nullptr, nullptr, w);
#pragma unroll
      for (int i = 0; i < N; ++i) weights[threadIdx.x * N + i] = w[i];
    }
    __syncthreads();

    // Pass 2: recompute the streams (x and residual from L2), collapse, store bf16(y); the final
    // norm's sums of squares come from the rounded y.
    float ss[kT];
#pragma unroll
    for (int tt = 0; tt < kT; ++tt) ss[tt] = 0.0f;
    for (int64_t c = threadIdx.x; c < chunks; c += kThreads) {
      const int64_t d = c * kW;
#pragma unroll
      for (int tt = 0; tt < kT; ++tt) {
        if (tt >= live) break;
        float y[kW];
#pragma unroll
        for (int e = 0; e < kW; ++e) y[e] = 0.0f;
#pragma unroll 1
        for (int j = 0; j < N; ++j) {
          float v[kW];
          unpack<kW>(post_stream<N, kW>(q, t0 + tt, d, j), v);
          const float wj = weights[tt * N + j];
#pragma unroll
          for (int e = 0; e < kW; ++e) y[e] += wj * v[e];
        }
        const Packed<kW> yb = pack<kW>(y);
        if (norm_weight != nullptr) {
          float r[kW];
          unpack<kW>(yb, r);
#pragma unroll
          for (int e = 0; e < kW; ++e) ss[tt] += r[e] * r[e];
        }
        store_packed<kW>(h.layer_input + (t0 + tt) * hidden + d, yb);
      }
    }

    // Pass 3 (final RMSNorm): out = bf16(yb * rsqrt(sum yb^2 / D + eps) * w).
    if (norm_weight != nullptr) {
      block_sum(ss, scratch, sums);
      norm_stored_tile<kT, kW>(h.layer_input, hidden, t0, live, sums, norm_weight, h.scalars.norm_eps);
    }
    __syncthreads();  // weights and sums are rewritten by the next tile
  }
}

// The 16-byte chunk path of the post-then-project tile kernels: D % 8 == 0 and every row pointer
// aligned (null pointers count as aligned).
inline bool tile_vec(const MhcPostParams& q, const MhcPreParams& h) {
  return h.hidden % 8 == 0 && aligned16(q.x) && aligned16(q.residual) && aligned16(q.out) && aligned16(h.fn) &&
         aligned16(h.layer_input) && aligned16(h.norm_weight);
}

inline int launch_general(const MhcPostHeadParams& p, cudaStream_t stream) {
  const MhcPreParams& h = p.pre;
  const bool vec = tile_vec(p.post, h);
  return dispatch_hc_mult(h.hc_mult, [&](auto n) {
    constexpr int N = decltype(n)::value;
    const unsigned grid = grid_for(h.tokens, tokens_per_tile<N>());
    if (vec) {
      mhc_post_hc_head_kernel<N, true><<<grid, kThreads, 0, stream>>>(p);
    } else {
      mhc_post_hc_head_kernel<N, false><<<grid, kThreads, 0, stream>>>(p);
    }
    return int(cudaGetLastError());
  });
}

}  // namespace post_head

}  // namespace dsv4::cuda
