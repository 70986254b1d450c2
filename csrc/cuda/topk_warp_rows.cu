// top_k_per_row on CUDA for rows of at most 2048 columns: one warp per row, no block barriers.
//
// A block-per-row select pays a fixed chain per row (histogram clears, CUB scans of 2048 bins,
// ~15 block barriers, walks over per-warp candidate segments): ~11 K warp instructions for a
// 2048-wide row, so 16384 such rows were instruction-bound. Here a warp holds its row's keys in
// registers (64 a lane; lane l has entry 32 s + l at step s, so a ballot per step follows index
// order), counts the radix digits of topk.cu (11, 11, 10 bits, only keys on the running prefix)
// into a warp-private 2048-bin histogram (8 KB a warp; a plain increment, so that lanes of one bin
// aggregate in one shared atomic, and uncounted lanes go to a spare bin instead of a branch), and
// picks each digit with two warp scans (lane totals, then the 64 bins of the lane that crosses).
// It stops once every key on the prefix is needed, then stages every key above the prefix and the
// lowest-index ones on it in ascending index order (topk_slot; this also satisfies
// deterministic=True) in the freed histogram and copies them out coalesced. ~3.6 K warp
// instructions a row (half the block design's), one read; 168 registers, so 12 warps an SM: the
// rows are latency-bound (benchmarks/NOTES.md). A sampled floor for the first digit (fewer bins
// per atomic) measured slower and was not kept.
#include "../common/topk_math.h"
#include "cuda_common.cuh"
#include "topk_launch.h"

namespace dsv4::cuda {

namespace {

constexpr int kRowSteps = 64;       // keys a lane holds
constexpr int kRowWarps = 4;        // rows (warps) per block; three blocks an SM (168 registers)
static_assert(kWarpRowWidth == kRowSteps * kWarp, "a row is at most one key per lane and step");

struct WarpPick {
  uint32_t digit, remaining, count;  // as TopkPick, with the digit instead of its rank
};

// The bin holding the `remaining`-th largest counted key (1 <= remaining <= the total counted).
// Bin rank r (from the largest digit) is digit 2047 - r: lane l sums the ranks [64 l, 64 l + 64),
// bins 2048 - 64 (l + 1) .. 2047 - 64 l. The lane that crosses `remaining` is found by a scan of
// lane totals; its 64 bins are then split two a lane and scanned again.
__device__ WarpPick warp_pick(const uint32_t* hist, uint32_t remaining) {
  constexpr int kPerLane = kTopkBins / kWarp;
  const uint32_t lane = threadIdx.x % kWarp;
  const uint4* mine = reinterpret_cast<const uint4*>(hist + kTopkBins - kPerLane * (lane + 1));
  uint32_t total = 0;
#pragma unroll
  for (int q = 0; q < kPerLane / 4; ++q) {
    const uint4 w = mine[q];
    total += w.x + w.y + w.z + w.w;
  }
  const uint32_t upto = warp_inclusive_sum(total, int(lane));
  const int crossing = __ffs(__ballot_sync(0xffffffffu, upto - total < remaining && upto >= remaining)) - 1;
  const uint32_t base = __shfl_sync(0xffffffffu, upto - total, crossing);
  // Lane t: bins 2w + 1 (rank 64 crossing + 2 t) and 2w (the next rank).
  const uint32_t w = kTopkBins / 2 - 1 - kWarp * crossing - lane;
  const uint2 pair = reinterpret_cast<const uint2*>(hist)[w];
  const uint32_t hi = pair.y, lo = pair.x;
  const uint32_t above = base + warp_inclusive_sum(hi + lo, int(lane)) - (hi + lo);
  const bool in_hi = above < remaining && above + hi >= remaining;
  const bool in_lo = above + hi < remaining && above + hi + lo >= remaining;
  const int t = __ffs(__ballot_sync(0xffffffffu, in_hi || in_lo)) - 1;
  const uint32_t digit = in_hi ? 2 * w + 1 : 2 * w, count = in_hi ? hi : lo, before = in_hi ? above : above + hi;
  return {__shfl_sync(0xffffffffu, digit, t), remaining - __shfl_sync(0xffffffffu, before, t),
          __shfl_sync(0xffffffffu, count, t)};
}

// One row of len (k < len <= 2048) entries at src (column stride cs) into out.
__device__ void select_warp_row(const float* src, int64_t cs, uint32_t len, uint32_t k, uint32_t* hist,
                                int32_t* out) {
  const uint32_t lane = threadIdx.x % kWarp, lanes_below = (1u << lane) - 1u;
  // Every load in flight before the first key is formed. Keys are topk_row_key, 0 past len: counted
  // like any key, never selected (the k-th largest key is >= 1 because len > k), so no pass checks
  // the length.
  uint32_t key[kRowSteps];
  const float* at = src + int64_t(lane) * cs;  // one running address: 64 of them would not fit
  const int64_t step = int64_t(kWarp) * cs;
#pragma unroll
  for (int s = 0; s < kRowSteps; ++s, at += step) key[s] = s * kWarp + lane < len ? __float_as_uint(__ldg(at)) : 0u;
#pragma unroll
  for (int s = 0; s < kRowSteps; ++s)
    key[s] = s * kWarp + lane < len ? topk_row_key(__uint_as_float(key[s])) : 0u;
  // Keys above `prefix` under `mask` are selected, and `remaining` of the `on` keys equal to it.
  uint32_t prefix = 0, mask = 0, remaining = k, on = 0;
  for (int pass = 0; pass < kTopkRadixPasses && on != remaining; ++pass) {
#pragma unroll
    for (int q = lane; q < kTopkBins / 4; q += kWarp) reinterpret_cast<uint4*>(hist)[q] = make_uint4(0, 0, 0, 0);
    __syncwarp();
    const int shift = topk_digit_shift(pass);
    const uint32_t digit_mask = topk_digit_mask(pass);
#pragma unroll
    for (int s = 0; s < kRowSteps; ++s) {
      // Lanes not counted add to a spare bin: no branch, and lanes of one bin aggregate in one atomic.
      const bool counted = (key[s] & mask) == prefix;
      atomicAdd(&hist[counted ? (key[s] >> shift) & digit_mask : kTopkBins], 1u);
    }
    __syncwarp();
    const WarpPick pick = warp_pick(hist, remaining);
    __syncwarp();  // every lane has read the histogram before the next pass clears it
    prefix |= pick.digit << shift;
    mask |= digit_mask << shift;
    remaining = pick.remaining;
    on = pick.count;
  }
  // The selection goes to `hist` (free now; k < len <= 2048 slots) in output order, then out in
  // coalesced stores.
  uint32_t* const staged = hist;
  if (on == remaining) {  // every key at or above the prefix: one ballot a step
    uint32_t a = 0;  // selected keys at earlier steps
#pragma unroll
    for (int s = 0; s < kRowSteps; ++s) {
      const uint32_t j = s * kWarp + lane;
      const bool taken = (key[s] & mask) >= prefix;
      const uint32_t b = __ballot_sync(0xffffffffu, taken);
      if (taken) staged[a + __popc(b & lanes_below)] = j;
      a += __popc(b);
    }
  } else {
    uint32_t a = 0, e = 0;  // keys above the prefix and on it, at earlier steps
#pragma unroll
    for (int s = 0; s < kRowSteps; ++s) {
      const uint32_t j = s * kWarp + lane;
      const bool gt = (key[s] & mask) > prefix, eq = (key[s] & mask) == prefix;
      const uint32_t b_gt = __ballot_sync(0xffffffffu, gt), b_eq = __ballot_sync(0xffffffffu, eq);
      const uint32_t my_e = e + __popc(b_eq & lanes_below);
      if (gt || (eq && my_e < remaining)) staged[topk_slot(a + __popc(b_gt & lanes_below), my_e, remaining)] = j;
      a += __popc(b_gt);
      e += __popc(b_eq);
    }
  }
  __syncwarp();
  for (uint32_t i = lane; i < k; i += kWarp) out[i] = int32_t(staged[i]);
  __syncwarp();  // the next row clears `hist`
}

__global__ void __launch_bounds__(kRowWarps * kWarp, 3) topk_warp_rows_kernel(TopKParams p) {
  __shared__ alignas(16) uint32_t hist[kRowWarps][kTopkBins + 4];  // + the spare bin
  const int warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  for (int64_t r = int64_t(blockIdx.x) * kRowWarps + warp; r < p.rows; r += int64_t(gridDim.x) * kRowWarps) {
    int64_t start = 0, len = 0;
    topk_row_window(p, r, &start, &len);
    int32_t* out = p.indices + r * p.indices_row_stride;
    if (len <= p.k) {
      for (int64_t i = lane; i < p.k; i += kWarp) out[i] = i < len ? int32_t(i) : -1;
      continue;
    }
    const float* src = p.logits + r * p.logits_row_stride + start * p.logits_col_stride;
    select_warp_row(src, p.logits_col_stride, uint32_t(len), uint32_t(p.k), hist[warp], out);
  }
}

}  // namespace

int top_k_warp_rows(const TopKParams& p, cudaStream_t stream) {
  const int64_t blocks = (p.rows + kRowWarps - 1) / kRowWarps;
  const unsigned grid = unsigned(blocks < 65535LL * 32 ? blocks : 65535LL * 32);
  topk_warp_rows_kernel<<<grid, kRowWarps * kWarp, 0, stream>>>(p);
  return int(cudaGetLastError());
}

}  // namespace dsv4::cuda
