// mhc_pre, hc_head, the fused post+pre, mhc_post_hc_head, mhc_pre_delayed and the fused post+delayed
// pre on CDNA: one kernel template, one workgroup per tile of kTokens consecutive tokens (grid-stride
// over tiles).
//
// Each thread owns the d-chunks c = tid, tid + 256, ... of the tile: a chunk is 8 consecutive d of
// all n streams (16-byte loads) or 1 d when D % 8 != 0 or a pointer is unaligned, so no element is
// skipped and the same thread touches the same addresses in every pass.
//   Pass 0 (fused ops only) applies the post of mhc_post_kernel.h to the tile and stores the new
//     residual, rounded once; the passes below read those stored values (§3.7), each thread only
//     its own stores.
//   Pass 1 reads the tile's residual (mhc_pre, hc_head: once from HBM; fused: the pass-0 stores,
//     from L2; mhc_post_hc_head: computes each new stream from x and the residual, one stream at a
//     time, rounds it, stores it to streams_out when given) and accumulates, per token, the projections on every fn row and the sum of squares
//     in fp32 FMAs (never reduced precision). Each fn value loaded serves all kTokens tokens of
//     the tile, which divides fn's L2 traffic by kTokens.
//   A fixed-order block sum (butterfly per wave, then the waves in order) gives G and S; thread tt
//     runs the shared per-token math of mhc_math.h for token tt of the tile.
//   Pass 2 re-reads the residual (now from L2) for the stream collapse (mhc_post_hc_head: recomputes
//     the rounded new streams from x and the residual). With the fused RMSNorm it stores bf16(y) and
//     sums y^2 from the fp32 y (mhc_post_hc_head's final norm: from the rounded y); pass 3 reads
//     those D values back (the thread's own stores), scales and stores them.
// The reduction order depends only on (n, D), never on T or on a token's place in its tile, so a
// token's outputs are batch-invariant.
//
// mhc_pre_delayed (kDelayed) is kPre with three differences: pass 1 projects x (one D-wide stream,
// fn of width D) when given; thread tt stores the new pre weights and takes the carried pre_mix
// as the collapse weights; without a pre_mix the collapse takes stream 0 alone (weight 1: exact).
// On the streams the collapse needs nothing this op computes, so pass 1 does it with the loads it
// already holds (the same sums in the same order as pass 2's) and pass 2 is skipped: the residual
// is read once. The broadcast entry (x given) and n = 1 still collapse in pass 2.
// mhc_fused_post_pre_delayed (kFusedDelayed, DeepSeek-V4.1's seam) is kFused's pass 0 (residual_out
// stored, the passes below read it) with kDelayed's per-token step and collapse (no x at a seam).
//
// Store ownership (the AITER sqrsum race, spec §5.1, cannot happen): every per-token value has one
// writer chosen by index, never by raw lane id after a reduction. block_sum's wave partials are
// written by lane 0 of each wave into that wave's slot and each total by thread m alone; post_mix,
// comb_mix and the weights of token tt by thread tt alone (tt < kTokens <= 8, all in wave 0); a
// chunk of layer_input or residual_out by the one thread owning that chunk.
//
// Reloads without a barrier (passes 1 and 2 of the fused op read residual_out from pass 0, pass 3
// reads layer_input from pass 2) are safe without a fence: every reload is of an address the same
// work-item stored before (same chunk c0 + tid, same lane offset), never another lane's. In one
// thread a load sequenced after a store to the same location returns that store (LLVM LangRef,
// "Memory Model for Concurrent Operations": a non-atomic load sees the store that happens-before
// it, and sequenced-before is happens-before), and AMDGPUUsage's "Memory Model GFX942" maps
// non-atomic global loads and stores to plain instructions with no wait or cache maintenance: a
// work-item's own accesses need none. Fences and barriers order accesses of different work-items
// only. The HIP-CPU tests run a work-item's pass 0 and pass 1 before the next work-item starts, over
// a NaN-preset residual_out, so a reload of another thread's chunk would show there.
#pragma once

#include "mhc_post_kernel.h"

namespace dsv4::hip {

constexpr int kPreThreads = 256;  // 4 waves: one per SIMD of a CU

enum class PreMode { kPre, kHead, kFused, kPostHead, kDelayed, kFusedDelayed };

// mhc_pre_delayed's part of MhcPreDelayedParams (null for the other modes).
struct DelayedArgs {
  const bf16* x;
  const float* pre_mix;
  float* new_pre;
};

// Modes that project with the head's n rows (hc_head, mhc_post_hc_head).
constexpr bool is_head(PreMode m) { return m == PreMode::kHead || m == PreMode::kPostHead; }
// Modes that apply a post first and store residual_out (the fused ops).
constexpr bool is_fused(PreMode m) { return m == PreMode::kFused || m == PreMode::kFusedDelayed; }
// Modes that collapse with the carried pre_mix and store the new pre weights (DeepSeek-V4.1).
constexpr bool is_delayed(PreMode m) { return m == PreMode::kDelayed || m == PreMode::kFusedDelayed; }

// Register tiling, checked against the code objects (no scratch on gfx942 or gfx950).
template <class Arch, int N, PreMode M>
struct PreTile {
  static constexpr int kRows = is_head(M) ? N : N * (N + 2);  // fn rows
  static constexpr int kSums = kRows + 1;                             // + the sum of squares
  // The occupancy the compiler must keep: 4 waves per SIMD (128 VGPRs), except where that spills
  // to scratch: n >= 7 (64 or 81 accumulators) and, on gfx950 (whose compiler schedules pass 1
  // differently), mhc_pre and the fused op at n = 4; those get 3 (168 VGPRs; they use ~130-146).
  static constexpr bool kWide =
      N >= 7 || (N == 4 && M != PreMode::kHead && std::is_same_v<Arch, Gfx950>);
  static constexpr int kWavesPerSimd = kWide ? 3 : 4;
  // Tokens per tile: per token a thread holds kSums accumulators and one stream's chunk (8).
  static constexpr int kTokens = is_head(M) ? (N <= 2 ? 4 : N <= 3 ? 3 : N <= 6 ? 2 : 1)
                                                     : (N <= 1 ? 4 : N <= 2 ? 3 : N <= 4 ? 2 : 1);
  // fn rows whose loads may be in flight together (a compiler memory barrier between groups):
  // unbounded, the scheduler issues every row's loads at once and spills.
  static constexpr int kGroupFit = (96 - kTokens * (kSums + 8)) / 8;
  static constexpr int kRowGroup = kGroupFit < 1 ? 1 : kGroupFit > 4 ? 4 : kGroupFit;
};

// y = sum_i w[i] * R[i, d] over the streams of one chunk (fp32, unrounded); `r` is stream 0 at
// the chunk's uniform base.
template <int N, int kW>
__device__ __forceinline__ void collapse_chunk(const bf16* r, int64_t hidden, uint32_t lane,
                                               const float* w, float (&y)[kW]) {
#pragma unroll
  for (int e = 0; e < kW; ++e) y[e] = 0.0f;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    float v[kW];
    unpack<kW>(load_raw<kW>(r + i * hidden, lane), v);
#pragma unroll
    for (int e = 0; e < kW; ++e) y[e] += w[i] * v[e];
  }
}

// Calls f(c0) for each of this thread's chunks c0 + tid; c0, the pass's base, is wave-uniform.
template <class F>
__device__ __forceinline__ void for_own_chunks(int64_t chunks, int tid, F&& f) {
  for (int64_t c0 = 0; c0 < chunks; c0 += kPreThreads) {
    if (c0 + tid >= chunks) break;
    f(c0);
  }
}

// kFused reads MhcFusedParams::post and writes post.out == pre.residual; kPre and kHead use `pre`;
// kPostHead reads `post`, writes post.out (streams_out) when not null, and uses `pre` as the head
// (pre.residual unused; norm_weight is the final norm, on the rounded head output); kDelayed uses
// `pre` and `d`; kFusedDelayed is kFused with `d` (d.x null).
template <class Arch, int N, PreMode M, bool kVec>
__global__ void __launch_bounds__(kPreThreads)
__attribute__((amdgpu_waves_per_eu(PreTile<Arch, N, M>::kWavesPerSimd))) mhc_pre_kernel(MhcFusedParams fp,
                                                                                          DelayedArgs d) {
  if constexpr (Arch::kThisTarget) {
    using Tile = PreTile<Arch, N, M>;
    constexpr int kRows = Tile::kRows, kSums = Tile::kSums, kTokens = Tile::kTokens;
    constexpr int kW = kVec ? 8 : 1;
    constexpr int kWaves = kPreThreads / kWave;
    __shared__ float scratch[kTokens * kSums * kWaves];
    __shared__ float sums[kTokens * kSums];  // token tt's G and S at tt * kSums
    __shared__ float weights[kTokens * N];   // pre (or head) weights
    static_assert(sizeof(scratch) + sizeof(sums) + sizeof(weights) <= Arch::kLdsBytes / 8,
                  "LDS stays a small fraction of the CU's, so it never limits occupancy");

    const MhcPreParams& p = fp.pre;
    const int64_t hidden = p.hidden, k_total = N * hidden;
    const bool broadcast = is_delayed(M) && d.x != nullptr;  // uniform
    const bool identity = is_delayed(M) && d.pre_mix == nullptr;
    const int proj_streams = broadcast ? 1 : N;
    const int64_t k_proj = broadcast ? hidden : k_total;  // projection width (fn's row length)
    const int64_t chunks = hidden / kW;  // kVec: hidden % 8 == 0
    const int tid = thread_id();
    // A chunk loop runs over uniform bases c0 (a multiple of 256); the lane's part is constant.
    const uint32_t lane = uint32_t(tid) * kW;
    const bf16* norm_weight = M == PreMode::kHead ? nullptr : p.norm_weight;
    const MhcPostParams& q = fp.post;
    const int64_t tiles = (p.tokens + kTokens - 1) / kTokens;

    for (int64_t tile = block_id(); tile < tiles; tile += block_count<kPreThreads>()) {
      const int64_t t0 = tile * kTokens;
      const int live = int(p.tokens - t0 < kTokens ? p.tokens - t0 : kTokens);  // uniform

      if constexpr (is_fused(M)) {
        for_own_chunks(chunks, tid, [&](int64_t c0) {
          for (int tt = 0; tt < live; ++tt) {
            const int64_t t = t0 + tt;
            post_chunk<N, kW>(q, t, c0 * kW, lane, [&](int j, const float (&out)[kW]) {
              store_raw<kW>(q.out + (t * N + j) * hidden + c0 * kW, lane, pack<kW>(out));
            });
          }
        });
      }

      // Pass 1: projections and sums of squares of the tile's tokens; for the delayed ops on the
      // streams (not the broadcast entry), also the collapse with the carried weights, which need
      // nothing of this pass: pass 2 then has nothing left to do and the residual is read once.
      // n = 1 keeps pass 2: its 4-token tiles' 32 extra sums spilled to scratch (the ISA check).
      constexpr bool kPass1Collapse = is_delayed(M) && N > 1;
      const bool collapse_in_pass1 = kPass1Collapse && !broadcast;  // uniform
      float acc[kTokens * kSums];
#pragma unroll
      for (int s = 0; s < kTokens * kSums; ++s) acc[s] = 0.0f;
      float ss[kTokens];  // per token, sum of y^2 over this thread's chunks (the fused RMSNorm)
#pragma unroll
      for (int tt = 0; tt < kTokens; ++tt) ss[tt] = 0.0f;
      for_own_chunks(chunks, tid, [&](int64_t c0) {
        float y[kPass1Collapse ? kTokens : 1][kW];  // collapse_in_pass1: collapse_chunk's sums, same order
#pragma unroll
        for (int tt = 0; tt < (kPass1Collapse ? kTokens : 1); ++tt)
#pragma unroll
          for (int e = 0; e < kW; ++e) y[tt][e] = 0.0f;
        // One stream at a time (not unrolled): one stream's chunk per token is in registers.
#pragma unroll 1
        for (int i = 0; i < proj_streams; ++i) {
          float v[kTokens][kW];
#pragma unroll
          for (int tt = 0; tt < kTokens; ++tt) {
            if (tt < live) {
              if constexpr (M == PreMode::kPostHead) {
                const int64_t t = t0 + tt;
                const Chunk<kW> s = post_stream<N, kW>(q, t, c0 * kW, lane, i);
                if (q.out != nullptr) store_raw<kW>(q.out + (t * N + i) * hidden + c0 * kW, lane, s);
                unpack<kW>(s, v[tt]);
              } else {
                const bf16* src = broadcast ? d.x + (t0 + tt) * hidden : p.residual + ((t0 + tt) * N + i) * hidden;
                unpack<kW>(load_raw<kW>(src + c0 * kW, lane), v[tt]);
              }
            } else {
#pragma unroll
              for (int e = 0; e < kW; ++e) v[tt][e] = 0.0f;
            }
#pragma unroll
            for (int e = 0; e < kW; ++e) acc[tt * kSums + kRows] += v[tt][e] * v[tt][e];
            if constexpr (kPass1Collapse) {
              // Without a pre_mix, stream 0 alone with weight 1 (collapse_chunk<1>): exact.
              if (collapse_in_pass1 && tt < live && (!identity || i == 0)) {
                const float w = identity ? 1.0f : d.pre_mix[(t0 + tt) * N + i];  // uniform: a scalar load
#pragma unroll
                for (int e = 0; e < kW; ++e) y[tt][e] += w * v[tt][e];
              }
            }
          }
          // Down the fn rows, each row's base pinned and the next derived from it, so no
          // per-row base is precomputed and held (kRows of them would spill).
          const float* row = p.fn + i * hidden + c0 * kW;
#pragma unroll
          for (int m = 0; m < kRows; ++m, row = pin(row + k_proj)) {
            if (m % Tile::kRowGroup == 0) asm volatile("" ::: "memory");
            float f[kW];
            load_f32<kW>(row, lane, f);
#pragma unroll
            for (int tt = 0; tt < kTokens; ++tt)
#pragma unroll
              for (int e = 0; e < kW; ++e) acc[tt * kSums + m] += v[tt][e] * f[e];
          }
        }
        if constexpr (kPass1Collapse) {
          if (collapse_in_pass1) {
#pragma unroll
            for (int tt = 0; tt < kTokens; ++tt) {
              if (tt >= live) break;
#pragma unroll
              for (int e = 0; e < kW; ++e) ss[tt] += y[tt][e] * y[tt][e];
              store_raw<kW>(p.layer_input + (t0 + tt) * hidden + c0 * kW, lane, pack<kW>(y[tt]));
            }
          }
        }
      });
      block_sum<kTokens * kSums, kPreThreads>(acc, scratch, sums);

      // Per-token math, the same code as the CPU backend: thread tt owns token t0 + tt.
      if (tid < live) {
        const int64_t t = t0 + tid;
        const float* g = sums + tid * kSums;
        float w[N];
        constexpr bool kHead = is_head(M);
        mhc_token_weights<N, kHead>(g, g[kRows], k_proj, p.hc_scale, p.hc_base, p.scalars,
                                    kHead ? nullptr : p.post_mix + t * N,
                                    kHead ? nullptr : p.comb_mix + t * N * N, w);
#pragma unroll
        for (int i = 0; i < N; ++i) {
          if constexpr (is_delayed(M)) {
            d.new_pre[t * N + i] = w[i];
            weights[tid * N + i] = identity ? 1.0f : d.pre_mix[t * N + i];
          } else {
            weights[tid * N + i] = w[i];
          }
        }
      }
      block_barrier();

      // Pass 2: layer_input = bf16(y); with the fused RMSNorm bf16(y) is an intermediate, and the
      // sums of y^2 come from the fp32 y. (Done in pass 1 when collapse_in_pass1.)
      if (!collapse_in_pass1) for_own_chunks(chunks, tid, [&](int64_t c0) {
#pragma unroll
        for (int tt = 0; tt < kTokens; ++tt) {
          if (tt >= live) break;
          const int64_t t = t0 + tt;
          float y[kW];
          if constexpr (M == PreMode::kPostHead) {
#pragma unroll
            for (int e = 0; e < kW; ++e) y[e] = 0.0f;
            // One stream at a time, as in pass 1 (all n sources held at once would spill at n >= 6).
#pragma unroll 1
            for (int j = 0; j < N; ++j) {
              float s[kW];
              unpack<kW>(post_stream<N, kW>(q, t, c0 * kW, lane, j), s);  // the stored (rounded) stream
              const float wj = weights[tt * N + j];
#pragma unroll
              for (int e = 0; e < kW; ++e) y[e] += wj * s[e];
            }
            unpack<kW>(pack<kW>(y), y);  // the final norm reads the rounded head output
          } else if (identity) {
            collapse_chunk<1, kW>(p.residual + t * k_total + c0 * kW, hidden, lane, weights + tt * N, y);
          } else {
            collapse_chunk<N, kW>(p.residual + t * k_total + c0 * kW, hidden, lane, weights + tt * N,
                                  y);
          }
#pragma unroll
          for (int e = 0; e < kW; ++e) ss[tt] += y[e] * y[e];
          store_raw<kW>(p.layer_input + t * hidden + c0 * kW, lane, pack<kW>(y));
        }
      });

      // Pass 3 (fused RMSNorm): layer_input = bf16(f(bf16(y)) * rsqrt(ss/D + eps) * w), §3.5.
      if (norm_weight != nullptr) {
        block_sum<kTokens, kPreThreads>(ss, scratch, sums);
        float scale[kTokens];
#pragma unroll
        for (int tt = 0; tt < kTokens; ++tt)
          scale[tt] = rms_factor(sums[tt], hidden, p.scalars.norm_eps);
        for_own_chunks(chunks, tid, [&](int64_t c0) {
          float nw[kW];
          unpack<kW>(load_raw<kW>(norm_weight + c0 * kW, lane), nw);
#pragma unroll
          for (int tt = 0; tt < kTokens; ++tt) {
            if (tt >= live) break;
            bf16* out = p.layer_input + (t0 + tt) * hidden + c0 * kW;
            float yb[kW];
            unpack<kW>(load_raw<kW>(out, lane), yb);  // this thread's own pass-2 store
#pragma unroll
            for (int e = 0; e < kW; ++e) yb[e] = yb[e] * scale[tt] * nw[e];
            store_raw<kW>(out, lane, pack<kW>(yb));
          }
        });
      }
      block_barrier();  // weights and sums are rewritten by the next tile
    }
  }
}

template <class Arch, PreMode M>
int launch_mhc_pre(const MhcFusedParams& fp, hipStream_t stream, DelayedArgs d = {}) {
  const MhcPreParams& p = fp.pre;
  bool vec = p.hidden % 8 == 0 && (M == PreMode::kPostHead || aligned16(p.residual)) && aligned16(p.fn) &&
             aligned16(p.layer_input) &&
             (M == PreMode::kHead || p.norm_weight == nullptr || aligned16(p.norm_weight)) &&
             (d.x == nullptr || aligned16(d.x));
  if constexpr (is_fused(M) || M == PreMode::kPostHead)
    vec = vec && aligned16(fp.post.x) && aligned16(fp.post.residual) && aligned16(fp.post.out);
  return dispatch_hc_mult(p.hc_mult, [&](auto n) {
    constexpr int N = decltype(n)::value;
    constexpr int kTokens = PreTile<Arch, N, M>::kTokens;
    const int64_t tiles = (p.tokens + kTokens - 1) / kTokens;
    // As many 4-wave workgroups per CU as the kernel's guaranteed waves per SIMD: all resident at
    // once, so the grid-stride split has no second round; a tile's serial per-token math
    // (Sinkhorn, one lane per token) hides behind the other workgroups' streaming.
    const unsigned grid = grid_for<Arch>(tiles, 1, PreTile<Arch, N, M>::kWavesPerSimd);
    if (vec) {
      hipLaunchKernelGGL((mhc_pre_kernel<Arch, N, M, true>), grid, kPreThreads, 0, stream, fp, d);
    } else {
      hipLaunchKernelGGL((mhc_pre_kernel<Arch, N, M, false>), grid, kPreThreads, 0, stream, fp, d);
    }
    return int(hipGetLastError());
  });
}

}  // namespace dsv4::hip
