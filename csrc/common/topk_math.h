// Top-k and ragged-pack logic shared by every backend (../shared/spec/topk.md §2, §5, §6).
#pragma once

#include "compat.h"
#include "op_params.h"
#include "wave.h"

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

// Radix select over the key, most significant digit first: 11, 11, then 10 bits. Bins are ranked
// from the largest digit down (rank = kTopkBins - 1 - digit), so a running count from rank 0 is
// "keys above this digit".
constexpr int kTopkBins = 1 << 11;
constexpr int kTopkRadixPasses = 3;
DSV4_HD int topk_digit_shift(int pass) { return pass == 0 ? 21 : (pass == 1 ? 10 : 0); }
DSV4_HD uint32_t topk_digit_mask(int pass) { return pass < 2 ? 0x7ffu : 0x3ffu; }

struct TopkPick {
  uint32_t rank;       // bin rank holding the `remaining`-th largest key of the candidates
  uint32_t remaining;  // how many keys of that bin are still needed (>= 1)
  uint32_t count;      // keys in that bin; remaining == count means the whole bin is taken
};

// One wave picks the bin from a histogram read by rank: lane l holds `lane_total`, the sum of
// ranks [l*per_lane, (l+1)*per_lane), and count(rank) reads one bin (called with wave-uniform
// ranks). Needs 1 <= remaining <= the histogram total. The result is wave-uniform.
template <class B, class Count>
DSV4_HD TopkPick topk_pick_bin(typename B::template Val<uint32_t> lane_total, int per_lane,
                               uint32_t remaining, Count count) {
  const auto above = wave::exclusive_sum<B, uint32_t>(lane_total);
  const auto crosses = B::zip(above, lane_total, [remaining](uint32_t a, uint32_t n) {
    return a < remaining && a + n >= remaining;
  });
  const int lane = __builtin_ctzll(B::ballot(crosses));
  uint32_t acc = B::read_lane(above, lane);
  for (uint32_t rank = uint32_t(lane * per_lane);; ++rank) {
    const uint32_t n = count(rank);
    if (acc + n >= remaining) return {rank, remaining - acc, n};
    acc += n;
  }
}

// Output slot of a selected element in ascending index order: `above` keys beat the threshold
// before it, `on` keys tie with it before it, and only the first `need_on` ties are taken.
DSV4_HD uint32_t topk_slot(uint32_t above, uint32_t on, uint32_t need_on) {
  return above + (on < need_on ? on : need_on);
}

// ragged_pack's value map: out-of-range values become `fill` when num_kv >= 0.
DSV4_HD int32_t ragged_map(int32_t v, int64_t num_kv, int32_t fill) {
  return (num_kv >= 0 && (v < 0 || int64_t(v) >= num_kv)) ? fill : v;
}

DSV4_HD int64_t ragged_length(const RaggedPackParams& p, int64_t r) {
  return clamp64(p.lengths[r], 0, p.width);
}

}  // namespace dsv4
