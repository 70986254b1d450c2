// Torch-free launcher arguments: raw pointers, sizes and scalars for every op. The dispatcher fills
// these after validating the tensors once; each backend's launcher (csrc/cpu, csrc/cuda, csrc/hip)
// takes one of them plus its execution context (a CPU executor or a stream). All tensors are dense
// and contiguous unless a stride field says otherwise; element offsets are 64-bit.
#pragma once

#include <cstdint>

#include "bf16.h"
#include "mhc_math.h"

namespace dsv4 {

// mhc_pre (and hc_head, with head = true): residual [T, n, D] -> mixes and layer_input [T, D].
struct MhcPreParams {
  const bf16* residual;     // [T, n, D]
  const float* fn;          // [M3, n*D] (hc_head: [n, n*D])
  const float* hc_scale;    // [3] (hc_head: [1])
  const float* hc_base;     // [M3] (hc_head: [n])
  const bf16* norm_weight;  // [D] or null: fused RMSNorm of layer_input
  float* post_mix;          // [T, n]      (unused by hc_head)
  float* comb_mix;          // [T, n, n]   (unused by hc_head)
  bf16* layer_input;        // [T, D]
  int64_t tokens;
  int hc_mult;
  int64_t hidden;
  MhcPreScalars scalars;    // hc_head uses rms_eps and hc_pre_eps (= hc_eps) only
};

// mhc_post: out[t, j, :] = post[t, j] * x[t, :] + sum_i comb[t, i, j] * residual[t, i, :].
struct MhcPostParams {
  const bf16* x;         // [T, D]
  const bf16* residual;  // [T, n, D]
  const float* post_mix; // [T, n]
  const float* comb_mix; // [T, n, n]
  bf16* out;             // [T, n, D]
  int64_t tokens;
  int hc_mult;
  int64_t hidden;
};

// sinkhorn: [batch, n, n] logits -> doubly (approximately) stochastic matrices.
struct SinkhornParams {
  const float* logits;
  float* out;
  int64_t batch;
  int n;
  int repeat;
  float eps;
};

// top_k_per_row_prefill / _decode. Row r's window is [start_r, end_r) of the logits row, clamped
// to [0, width]; indices are written relative to start_r.
struct TopKParams {
  const float* logits;
  int64_t rows;
  int64_t width;
  int64_t logits_row_stride;
  int64_t logits_col_stride;
  // Prefill: row_starts / row_ends [R]. Decode: row_starts null, row_ends = seq_lens, with
  // seq_lens_2d selecting [B, next_n] (one length per row) over [B] (causal within next_n).
  const int32_t* row_starts;
  const int32_t* row_ends;
  int next_n;
  bool seq_lens_2d;
  int32_t* indices;  // [R, k], row stride indices_row_stride, unit column stride
  int64_t indices_row_stride;
  int k;
  bool deterministic;
};

// ragged_pack: CSR copy of dense [R, W] rows, lengths clamped to [0, W].
struct RaggedPackParams {
  const int32_t* dense;
  int64_t dense_row_stride;
  const int32_t* lengths;
  int32_t* indices_out;
  int32_t* indptr_out;
  int64_t rows;
  int64_t width;
  int64_t num_kv;  // < 0: copy values unchanged
  int32_t fill;
};

}  // namespace dsv4

namespace dsv4 {

// mhc_fused_post_pre: post writes `post.out`, which is `pre.residual` (the bf16-rounded new residual).
struct MhcFusedParams {
  MhcPostParams post;
  MhcPreParams pre;
};

// mhc_post_hc_head (spec §4.6): the same two halves. `post` is mhc_post's, with `post.out` = the
// optional streams_out [T, n, D] (null: the new streams are not stored). `pre` is hc_head's on the
// bf16-rounded new streams: fn [n, n*D], hc_scale [1], hc_base [n], scalars.rms_eps and
// scalars.hc_pre_eps (= hc_eps); norm_weight (or null) and scalars.norm_eps are the optional final
// RMSNorm, taken on the bf16-rounded head output; layer_input is the output [T, D]; pre.residual,
// post_mix and comb_mix are unused.
using MhcPostHeadParams = MhcFusedParams;

// mhc_pre_delayed (DeepSeek-V4.1, docs/ops.md): `pre` is mhc_pre's, except that the mixes are
// projected from `x` [T, D] when given (the broadcast entry: fn [M3, D], the RMS over D) or from the
// flattened residual (fn [M3, n*D]), and that layer_input collapses pre.residual with the carried
// `pre_mix` [T, n] (null: it is stream 0). The new pre weights go to `new_pre` [T, n].
struct MhcPreDelayedParams {
  MhcPreParams pre;
  const bf16* x;         // [T, D] or null
  const float* pre_mix;  // [T, n] or null
  float* new_pre;        // [T, n]
};

// mhc_fused_post_pre_delayed (DeepSeek-V4.1's seam, docs/ops.md): `post` is mhc_post's and writes
// post.out, the bf16 residual_out, which is `pre.pre.residual`; `pre` is mhc_pre_delayed's on those
// stored streams (pre.x is null: the broadcast entry does not apply at a seam), collapsing them with
// the carried pre.pre_mix (null: stream 0) and storing the new pre weights to pre.new_pre.
struct MhcFusedDelayedParams {
  MhcPostParams post;
  MhcPreDelayedParams pre;
};

}  // namespace dsv4
