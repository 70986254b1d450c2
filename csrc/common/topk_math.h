// Top-k and ragged-pack logic shared by every backend (../shared/spec/topk.md §2, §5, §6).
#pragma once

#include "compat.h"
#include "op_params.h"

namespace dsv4 {

// Order-preserving key: a larger key is a larger value under +inf > finite > -inf > NaN,
// with -0.0 == +0.0. NaN (any sign or payload) maps to 0, below every number's key.
DSV4_HD uint32_t topk_key(float x) {
  uint32_t u = float_to_bits(x);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0u;
  if (u == 0x80000000u) u = 0u;
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

// Composite key for "k largest, ties to the lowest index": unique per element of a row.
DSV4_HD uint64_t topk_rank_key(float x, int64_t index) {
  return (uint64_t(topk_key(x)) << 32) | uint64_t(0xffffffffu - uint32_t(index));
}

DSV4_HD int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

// Row r's live window [start, start + len) within [0, width).
DSV4_HD void topk_row_window(const TopKParams& p, int64_t r, int64_t* start, int64_t* len) {
  int64_t s = 0, e = 0;
  if (p.row_starts != nullptr) {  // prefill
    s = clamp64(p.row_starts[r], 0, p.width);
    e = clamp64(p.row_ends[r], s, p.width);
  } else if (p.seq_lens_2d) {  // decode, [B, next_n]
    e = clamp64(p.row_ends[r], 0, p.width);
  } else {  // decode, [B]: causal within the speculative window
    const int64_t b = r / p.next_n, q = r % p.next_n;
    e = clamp64(int64_t(p.row_ends[b]) - p.next_n + q + 1, 0, p.width);
  }
  *start = s;
  *len = e - s;
}

// ragged_pack's value map: out-of-range values become `fill` when num_kv >= 0.
DSV4_HD int32_t ragged_map(int32_t v, int64_t num_kv, int32_t fill) {
  return (num_kv >= 0 && (v < 0 || int64_t(v) >= num_kv)) ? fill : v;
}

DSV4_HD int64_t ragged_length(const RaggedPackParams& p, int64_t r) {
  return clamp64(p.lengths[r], 0, p.width);
}

}  // namespace dsv4
