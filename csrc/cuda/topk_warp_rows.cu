// top_k_per_row on CUDA for rows of at most 2048 columns: one warp per row, no block barriers; rows of at
// most 4096 / 8192 columns: a group of two / four warps of one block per row. No more rows than SMs: more
// warps a row, so that a row's chain is shorter (two / four warps of 16 keys a lane for rows of 513-1024 /
// 1025-2048 columns, four of 32 for 2049-4096, eight of 32 for 4097-8192).
//
// A block-per-row select pays a fixed chain per row (histogram clears, CUB scans of 2048 bins,
// ~15 block barriers, walks over per-warp candidate segments): ~11 K warp instructions for a
// 2048-wide row, so 16384 such rows were instruction-bound. Here a warp holds 32 kSteps columns
// of a row as keys in registers (kSteps = 16, 32 or 64 a lane by the row width, so narrow rows pay
// for their own width; lane l has column 32 s + l of its part at step s, so a ballot per step
// follows index order), counts radix digits of 10, 11 and 11 bits (only keys on the running prefix;
// the first pass counts every key) into a 2048-bin histogram of the row (8 KB; a plain increment, so
// that lanes of one bin aggregate in one shared atomic; a key off the prefix lands on the spare bin
// by a clamp of (key - prefix) >> shift, no compare and select: 5 instructions a key, not 7, and
// 16384 x 2048 rows 7-8 % faster, session 28), and picks each digit with two warp scans (lane totals, then
// the 64 bins of the lane that crosses; every warp of a group picks the same from the shared
// histogram, behind a named barrier of the group). It stops once every key on the prefix is
// needed, then writes every key above the prefix and the lowest-index ones on it in ascending index
// order (topk_slot; this also satisfies deterministic=True) into the freed histogram (up to 2048 of
// them; more go straight to the output), from which the warps copy them out coalesced; the warps of
// a group count theirs first and write at the offsets of the warps before them. Written straight to
// the output, a group's per-step stores cost 20-25 % of the kernel (benchmarks/NOTES.md).
//
// The grid is persistent and, while a warp selects, its part of the next row of the walk lands in
// a per-warp shared buffer by cp.async (issued as soon as the current row's keys are in
// registers): a row read is in flight for every busy warp. The version that loaded a row only after
// the previous one was done spent a third of its stall samples on those loads (benchmarks/NOTES.md).
// Entries past a row's window get key 0: counted like any key, never selected (the k-th largest
// key is >= 1 because len > k), so no pass checks the length.
#include "../common/topk_math.h"
#include "cuda_common.cuh"
#include "cuda_ops.h"
#include "topk_launch.h"

namespace dsv4::cuda {

namespace {

// Warps per block: four (one to four rows), eight for a row on a group of eight warps.
template <int kGroup>
constexpr int block_warps() { return kGroup > 4 ? kGroup : 4; }
static_assert(kWarpRowWidth == 64 * kWarp, "the widest rows of one warp hold 64 keys a lane");
static_assert(kGroupRowWidth == 4 * kWarpRowWidth,
              "the widest rows take four warps of 64 keys (few rows: eight of 32)");

// kSteps keys a lane; kGroup warps share a row, warp p of the group holding its columns
// [32 kSteps p, 32 kSteps (p + 1)). Per block: a histogram per row (+ a spare bin; one warp a row:
// then the staged output), per group the warps' counts of selected keys, per warp its part's next
// copy.
template <int kSteps, int kGroup>
struct alignas(16) BlockSmem {
  static constexpr int kWarps = block_warps<kGroup>();
  static constexpr int kRows = kWarps / kGroup;
  uint32_t hist[kRows][kTopkBins + 4];
  uint32_t counts[kRows][kGroup][2];
  alignas(16) float row[kWarps][kSteps * kWarp];
};

// Orders the warps of a group (one warp: the warp itself); slot picks the group's named barrier.
template <int kGroup>
__device__ __forceinline__ void group_sync(int slot) {
  if constexpr (kGroup == 1) {
    __syncwarp();
  } else {
    asm volatile("bar.sync %0, %1;" ::"r"(1 + slot), "n"(kGroup * kWarp) : "memory");
  }
}

// This file's digits: 10, 11 and 11 bits from the top (topk.cu's are 11, 11, 10). After the first pass the prefix's
// low 22 / 11 bits are zero, so (key - prefix) >> shift is the digit for a key on the prefix and at least kTopkBins for
// any other (below the prefix it wraps past 2^22 / 2^11): clamped, it is the spare bin.
constexpr int row_digit_shift(int pass) { return pass == 0 ? 22 : (pass == 1 ? 11 : 0); }
constexpr uint32_t row_digit_mask(int pass) { return pass == 0 ? 0x3ffu : 0x7ffu; }

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
  // Lane bases are 256 bytes apart: reading in the same order, the 8 lanes of a 128-byte phase
  // would hit the same banks. Rotated by lane, they hit 8 different 16-byte bank groups.
#pragma unroll
  for (int q = 0; q < kPerLane / 4; ++q) {
    const uint4 w = mine[(q + lane) % (kPerLane / 4)];
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

// Issues the copy of a row part of len (<= 32 kSteps) entries at src (column stride cs) into `row`
// (row[j] = entry j; nothing past len is read). 16-byte copies where the row is contiguous and
// aligned, otherwise one 4-byte copy an entry.
template <int kSteps>
__device__ __forceinline__ void prefetch_row(const float* src, int64_t cs, uint32_t len, float* row) {
  const uint32_t lane = threadIdx.x % kWarp;
  const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(row));
  if (cs == 1 && (reinterpret_cast<uintptr_t>(src) & 15u) == 0) {
    if (len == kSteps * kWarp) {  // whole row: no predicates
#pragma unroll
      for (int q = 0; q < kSteps / 4; ++q) {
        const uint32_t e = 4 * (q * kWarp + lane);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst + 4 * e), "l"(src + e) : "memory");
      }
    } else {
#pragma unroll
      for (int q = 0; q < kSteps / 4; ++q) {
        const uint32_t e = 4 * (q * kWarp + lane);
        const uint32_t bytes = e < len ? 4 * min(len - e, 4u) : 0u;
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst + 4 * e),
                     "l"(bytes ? src + e : src), "r"(bytes)
                     : "memory");
      }
    }
  } else {
    const float* at = src + int64_t(lane) * cs;
    const int64_t step = int64_t(kWarp) * cs;
#pragma unroll
    for (int s = 0; s < kSteps; ++s, at += step) {
      const uint32_t j = s * kWarp + lane;
      asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(dst + 4 * j), "l"(j < len ? at : src),
                   "r"(j < len ? 4u : 0u)
                   : "memory");
    }
  }
  asm volatile("cp.async.commit_group;" ::: "memory");
}

// A row's selection by its group. Warp `part` holds the row's columns from 32 kSteps part on, of
// which `len` (<= 32 kSteps) are in the window and are in flight into `row`; the row has k <
// row_len entries. Writes the indices of the k largest in ascending order to out; issues the copy of
// this warp's part of the next row (when next_src is not null) as soon as the keys are in
// registers.
template <int kSteps, int kGroup>
__device__ __forceinline__ void select_row(BlockSmem<kSteps, kGroup>& sm, int slot, int part, uint32_t len,
                                           uint32_t k, int32_t* out, const float* next_src, int64_t cs,
                                           uint32_t next_len) {
  const uint32_t lane = threadIdx.x % kWarp, lanes_below = (1u << lane) - 1u;
  const uint32_t first = uint32_t(part) * kSteps * kWarp;  // this warp's first column
  float* const row = sm.row[threadIdx.x / kWarp];
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncwarp();
  // Keys are topk_row_key, 0 past the window: counted like any key, never selected (the k-th
  // largest key is >= 1 because the row has more than k entries), so no pass checks the length.
  uint32_t key[kSteps];
  if (len == kSteps * kWarp) {
#pragma unroll
    for (int s = 0; s < kSteps; ++s) key[s] = topk_row_key(row[s * kWarp + lane]);
  } else {
#pragma unroll
    for (int s = 0; s < kSteps; ++s) key[s] = s * kWarp + lane < len ? topk_row_key(row[s * kWarp + lane]) : 0u;
  }
  __syncwarp();  // every lane has read its entries before the next row's copy overwrites them
  if (next_src != nullptr) prefetch_row<kSteps>(next_src, cs, next_len, row);

  uint32_t* const hist = sm.hist[slot];
  // Keys above `prefix` under `mask` are selected, and `remaining` of the `on` keys equal to it.
  uint32_t prefix = 0, mask = 0, remaining = k, on = 0;
  for (int pass = 0; pass < kTopkRadixPasses && on != remaining; ++pass) {
#pragma unroll
    for (int q = part * kWarp + lane; q < kTopkBins / 4; q += kGroup * kWarp)
      reinterpret_cast<uint4*>(hist)[q] = make_uint4(0, 0, 0, 0);
    group_sync<kGroup>(slot);
    const int shift = row_digit_shift(pass);
    const uint32_t digit_mask = row_digit_mask(pass);
    if (pass == 0) {  // every key counted
#pragma unroll
      for (int s = 0; s < kSteps; ++s) atomicAdd(&hist[key[s] >> 22], 1u);
    } else {
#pragma unroll
      for (int s = 0; s < kSteps; ++s)  // keys off the prefix on the spare bin: no branch, one atomic a bin
        atomicAdd(&hist[min((key[s] - prefix) >> shift, uint32_t(kTopkBins))], 1u);
    }
    group_sync<kGroup>(slot);
    const WarpPick pick = warp_pick(hist, remaining);  // every warp of the group, the same pick
    group_sync<kGroup>(slot);  // every warp has read the histogram before the next pass clears it
    prefix |= pick.digit << shift;
    mask |= digit_mask << shift;
    remaining = pick.remaining;
    on = pick.count;
  }
  // Output slots before this warp's part: the selected keys of the group's earlier warps (above the
  // prefix, and on it). One warp: none.
  uint32_t a = 0, e = 0;
  if constexpr (kGroup > 1) {
    uint32_t n_gt = 0, n_eq = 0;  // every key on the prefix taken: n_gt counts them all
    if (on == remaining) {
#pragma unroll
      for (int s = 0; s < kSteps; ++s) n_gt += __popc(__ballot_sync(0xffffffffu, key[s] >= prefix));
    } else {
#pragma unroll
      for (int s = 0; s < kSteps; ++s) {
        n_gt += __popc(__ballot_sync(0xffffffffu, (key[s] & mask) > prefix));
        n_eq += __popc(__ballot_sync(0xffffffffu, (key[s] & mask) == prefix));
      }
    }
    if (lane == 0) {
      sm.counts[slot][part][0] = n_gt;
      sm.counts[slot][part][1] = n_eq;
    }
    group_sync<kGroup>(slot);
    for (int q = 0; q < part; ++q) {
      a += sm.counts[slot][q][0];
      e += sm.counts[slot][q][1];
    }
  }
  // Up to 2048 selected (one warp always: k < len <= 2048) are staged in `hist` (free now) and copied
  // out in coalesced stores; more go straight to out.
  const bool staged = kGroup == 1 || k <= uint32_t(kTopkBins);
  int32_t* const dst = staged ? reinterpret_cast<int32_t*>(hist) : out;
  if (on == remaining) {  // every key at or above the prefix: one ballot a step
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      const bool taken = key[s] >= prefix;
      const uint32_t b = __ballot_sync(0xffffffffu, taken);
      if (taken) dst[a + __popc(b & lanes_below)] = int32_t(first + s * kWarp + lane);
      a += __popc(b);
    }
  } else {
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      const bool gt = (key[s] & mask) > prefix, eq = (key[s] & mask) == prefix;
      const uint32_t b_gt = __ballot_sync(0xffffffffu, gt), b_eq = __ballot_sync(0xffffffffu, eq);
      const uint32_t my_e = e + __popc(b_eq & lanes_below);
      if (gt || (eq && my_e < remaining))
        dst[topk_slot(a + __popc(b_gt & lanes_below), my_e, remaining)] = int32_t(first + s * kWarp + lane);
      a += __popc(b_gt);
      e += __popc(b_eq);
    }
  }
  if (staged) {
    group_sync<kGroup>(slot);
    for (uint32_t i = part * kWarp + lane; i < k; i += kGroup * kWarp) out[i] = dst[i];
  }
  group_sync<kGroup>(slot);  // the next row clears `hist` (one warp) and rewrites `counts`
}

struct RowRef {
  const float* src;  // the window's first entry
  int64_t len;
};
__device__ __forceinline__ RowRef row_ref(const TopKParams& p, int64_t r) {
  int64_t start = 0, len = 0;
  topk_row_window(p, r, &start, &len);
  return {p.logits + r * p.logits_row_stride + start * p.logits_col_stride, len};
}

// This warp's part of a row: its first entry and how many of its 32 kSteps columns are in the window.
template <int kSteps>
__device__ __forceinline__ RowRef part_of(const TopKParams& p, RowRef row, int part) {
  const int64_t first = int64_t(part) * kSteps * kWarp;
  const int64_t left = row.len - first;
  if (left <= 0) return {row.src, 0};  // nothing of the window: no address past it is formed
  return {row.src + first * p.logits_col_stride, left < kSteps * kWarp ? left : kSteps * kWarp};
}

// Blocks an SM holds: three of 4 warps at 64 keys a lane (168 registers), more for narrower rows (eight-warp blocks
// half as many).
template <int kSteps, int kGroup>
__global__ void __launch_bounds__(block_warps<kGroup>() * kWarp, (64 / kSteps + 2) * 4 / block_warps<kGroup>())
    topk_warp_rows_kernel(TopKParams p) {
  using Smem = BlockSmem<kSteps, kGroup>;
  extern __shared__ uint4 smem_words[];
  Smem& sm = *reinterpret_cast<Smem*>(smem_words);
  pdl_begin();
  const int warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  const int slot = warp / kGroup, part = warp % kGroup;
  float* const buf = sm.row[warp];
  const int64_t stride = int64_t(gridDim.x) * Smem::kRows;
  int64_t r = int64_t(blockIdx.x) * Smem::kRows + slot;
  if (r >= p.rows) return;  // the whole group: a group shares its rows
  RowRef row = row_ref(p, r);
  if (row.len > p.k) {
    const RowRef mine = part_of<kSteps>(p, row, part);
    prefetch_row<kSteps>(mine.src, p.logits_col_stride, uint32_t(mine.len), buf);
  }
  for (; r < p.rows; r += stride) {
    const bool has_next = r + stride < p.rows;
    const RowRef next = has_next ? row_ref(p, r + stride) : RowRef{nullptr, 0};
    const RowRef next_mine = part_of<kSteps>(p, next, part);
    const float* next_src = has_next && next.len > p.k ? next_mine.src : nullptr;
    int32_t* out = p.indices + r * p.indices_row_stride;
    if (row.len <= p.k) {  // no copy in flight for this row: the buffer is free
      for (int64_t i = part * kWarp + lane; i < p.k; i += kGroup * kWarp) out[i] = i < row.len ? int32_t(i) : -1;
      if (next_src != nullptr) prefetch_row<kSteps>(next_src, p.logits_col_stride, uint32_t(next_mine.len), buf);
    } else {
      const RowRef mine = part_of<kSteps>(p, row, part);
      select_row<kSteps, kGroup>(sm, slot, part, uint32_t(mine.len), uint32_t(p.k), out, next_src,
                                 p.logits_col_stride, uint32_t(next_mine.len));
    }
    row = next;
  }
}

// Blocks the device holds at once (the kernel's shared memory opted in first), asked once per
// device: host time only and no launch, so it is safe during stream capture.
template <int kSteps, int kGroup>
int resident_blocks(int device) {
  static PerDevice resident;
  return resident.get(device, [](int d) {
    int per_sm = 0;
    constexpr size_t kSmem = sizeof(BlockSmem<kSteps, kGroup>);
    const auto kernel = topk_warp_rows_kernel<kSteps, kGroup>;
    if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem)) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block_warps<kGroup>() * kWarp, kSmem) !=
            cudaSuccess)
      return 0;
    return per_sm * device_sm_count(d);
  });
}

template <int kSteps, int kGroup>
int launch(const TopKParams& p, cudaStream_t stream) {
  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return int(e);
  const int resident = resident_blocks<kSteps, kGroup>(device);
  if (resident <= 0) {
    const cudaError_t e = cudaGetLastError();
    return int(e != cudaSuccess ? e : cudaErrorInvalidConfiguration);
  }
  // Persistent: every group walks its rows with the next one's copy in flight.
  constexpr int kRows = BlockSmem<kSteps, kGroup>::kRows;
  const int64_t blocks = (p.rows + kRows - 1) / kRows;
  const unsigned grid = unsigned(blocks < resident ? blocks : resident);
  LaunchAttrs attr;
  const cudaLaunchConfig_t cfg =
      launch_config(grid, block_warps<kGroup>() * kWarp, 0, sizeof(BlockSmem<kSteps, kGroup>), stream, attr);
  return int(cudaLaunchKernelEx(&cfg, topk_warp_rows_kernel<kSteps, kGroup>, p));
}

}  // namespace

int top_k_warp_rows(const TopKParams& p, cudaStream_t stream) {
  if (p.rows == 0) return int(cudaGetLastError());
  if (p.width <= 16 * kWarp) return launch<16, 1>(p, stream);
  // No more rows than SMs (decode): every row runs at once, so a row's chain, not the SMs' issue rate, is the time;
  // rows of 513-2048 columns take a group of two / four warps of 16 keys a lane (64 x 2048, k = 512: 6.2-6.5 ->
  // 4.6 us; 1 x 2048: 5.4-6.5 -> 3.9), rows of 2049-4096 four warps of 32 (8 x 4096: 6.3 -> 4.6-4.8). Many rows
  // stay on the fewest warps: there a group's repeated picks and barriers cost more than its shorter chain saves
  // (16384 x 2048: 85 -> 145 us on four warps; benchmarks/NOTES.md, session 21). Narrower rows measured no gain.
  // Rows of 4097-8192 columns: eight warps of 32 keys (one row a block).
  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return int(e);
  const bool few_rows = p.rows <= device_sm_count(device);
  if (p.width <= 32 * kWarp) return few_rows ? launch<16, 2>(p, stream) : launch<32, 1>(p, stream);
  if (p.width <= kWarpRowWidth) return few_rows ? launch<16, 4>(p, stream) : launch<64, 1>(p, stream);
  if (p.width <= 2 * kWarpRowWidth) return few_rows ? launch<32, 4>(p, stream) : launch<64, 2>(p, stream);
  return few_rows ? launch<32, 8>(p, stream) : launch<64, 4>(p, stream);
}

}  // namespace dsv4::cuda
