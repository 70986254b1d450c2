// Top-k and ragged-pack logic shared by every backend (../shared/spec/topk.md §2, §5, §6).
#pragma once

#include <math.h>

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

// topk_key's order in five instructions, with NaN at 1 (below -inf's 0x007fffff) so that 0 can mark
// entries past a row's end (the CUDA warp-per-row top-k): adding +0.0 turns -0.0 into +0.0 (round
// to nearest; no fast-math), then the sign flip.
DSV4_HD uint32_t topk_row_key(float x) {
  const float z = x + 0.0f;
  const uint32_t u = float_to_bits(z);
  return z != z ? 1u : u ^ (uint32_t(int32_t(u) >> 31) | 0x80000000u);
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

// The streaming select's threshold (CUDA top-k): the smallest value whose key is >= `key` (> 0), so
// that for every x, NaN included, x >= it exactly when topk_key(x) >= key. Keys below -inf's
// (NaN patterns) give -inf; keys above +inf's give NaN, which no value reaches (no value's key does).
DSV4_HD float topk_key_floor(uint32_t key) {
  if (key >= 0x80000000u) return bits_to_float(key & 0x7fffffffu);
  const uint32_t bits = ~key;
  return (bits & 0x7fffffffu) > 0x7f800000u ? bits_to_float(0xff800000u) : bits_to_float(bits);
}

// The rank a sample of `sampled` of a row's `len` keys aims at so that the row's k-th largest key
// lies above the threshold unless the sample is far off: ~k * sampled / len plus 3 standard
// deviations and 8, at most `sampled`; k when the sample is the whole row (the pick is exact).
DSV4_HD uint32_t topk_sample_rank(uint32_t k, uint32_t sampled, uint32_t len) {
  if (sampled >= len) return k;
  const float e = float(k) * float(sampled) / float(len);
  const uint32_t r = uint32_t(ceilf(e + 3.0f * sqrtf(e))) + 8u;
  return r < sampled ? r : sampled;
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

// ragged_pack's persistent schedule (CUDA and HIP; topk.md §6.3). A launch has `blocks` blocks;
// block b owns the contiguous rows [ragged_block_begin(s, b), ragged_block_begin(s, b + 1)) of
// s = ragged_schedule(rows, blocks): the first rows % blocks blocks one row more than the others,
// whatever rows mod blocks. The host divides once, so a block starts with no 64-bit division.
struct RaggedSchedule {
  int64_t per_block;  // rows / blocks
  int64_t extra;      // rows % blocks
};
DSV4_HD RaggedSchedule ragged_schedule(int64_t rows, int64_t blocks) { return {rows / blocks, rows % blocks}; }
DSV4_HD int64_t ragged_block_begin(RaggedSchedule s, int64_t b) {
  return b * s.per_block + (b < s.extra ? b : s.extra);
}

// Blocks of a launch: the blocks the device holds at once (`resident`), fewer when there are fewer
// rows (an empty range would only sum a prefix), and at least one, which writes indptr[0] = 0
// when rows == 0.
DSV4_HD int64_t ragged_pack_blocks(int64_t rows, int64_t resident) {
  const int64_t g = rows < resident ? rows : resident;
  return g > 1 ? g : 1;
}

// Copy segments of a row of `len` entries: `segment` entries each, the last one shorter.
DSV4_HD int64_t ragged_segments(int64_t len, int64_t segment) { return (len + segment - 1) / segment; }

// int32 entries from `p` (4-byte aligned) up to the next 16-byte boundary: 0..3.
DSV4_HD int ragged_align_head(const void* p) { return int(((16u - (uintptr_t(p) & 15u)) & 15u) >> 2); }

DSV4_HD int32_t ragged_clamp(int32_t len, int32_t width) { return len < 0 ? 0 : (len > width ? width : len); }

// Thread t's share (of kThreads) of the clamped lengths[lo, hi): int32 loads up to the first
// 16-byte boundary and after the last, kBatch 16-byte loads in flight between, each through
// load4(p, out) (p 16-byte aligned; out[0..4) = p[0..4)). The shares sum to the clamped total,
// which is below 2^31 (the host checks R * W < 2^31).
template <int kThreads, int kBatch, class Load4>
DSV4_HD int32_t ragged_sum_lengths(const int32_t* lengths, int64_t lo, int64_t hi, int32_t width, int t,
                                   Load4 load4) {
  if (lo >= hi) return 0;
  const int64_t head = clamp64(ragged_align_head(lengths + lo), 0, hi - lo);
  const int64_t quads = (hi - lo - head) / 4;
  const int64_t tail = lo + head + 4 * quads + t;  // hi - (lo + head + 4 * quads) < 4
  int32_t sum = 0;
  if (t < head) sum += ragged_clamp(lengths[lo + t], width);
  if (t < 4 && tail < hi) sum += ragged_clamp(lengths[tail], width);
  const int32_t* body = lengths + lo + head;
  for (int64_t q0 = t; q0 < quads; q0 += int64_t(kThreads) * kBatch) {
    int32_t v[kBatch][4];
    DSV4_UNROLL
    for (int k = 0; k < kBatch; ++k) {
      if (q0 + k * kThreads < quads) {
        load4(body + 4 * (q0 + k * kThreads), v[k]);
      } else {
        v[k][0] = v[k][1] = v[k][2] = v[k][3] = 0;
      }
    }
    DSV4_UNROLL
    for (int k = 0; k < kBatch; ++k)
      sum += ragged_clamp(v[k][0], width) + ragged_clamp(v[k][1], width) + ragged_clamp(v[k][2], width) +
             ragged_clamp(v[k][3], width);
  }
  return sum;
}

// A row segment of n entries copied from src to dst by one warp or wave. When the two share their
// alignment modulo 16 bytes (ragged_same_alignment), it is `head` int32 entries up to src's
// 16-byte boundary, `quads` 16-byte vectors, then fewer than 4 int32 entries; lanes 0-2 copy the
// head's and lanes 3-5 the tail's int32 entries (ragged_segment_edge: the entry, or -1 for none).
struct RaggedSegmentShape {
  int head, quads;
};
DSV4_HD bool ragged_same_alignment(const void* a, const void* b) {
  return ((uintptr_t(a) ^ uintptr_t(b)) & 15u) == 0;
}
DSV4_HD RaggedSegmentShape ragged_segment_shape(const int32_t* src, int n) {
  const int head = ragged_align_head(src) < n ? ragged_align_head(src) : n;
  return {head, (n - head) / 4};
}
DSV4_HD int ragged_segment_edge(RaggedSegmentShape s, int n, int lane) {
  if (lane < 3) return lane < s.head ? lane : -1;
  const int e = s.head + 4 * s.quads + lane - 3;
  return lane < 6 && e < n ? e : -1;
}

}  // namespace dsv4
