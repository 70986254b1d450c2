// top_k_per_row on CUDA: one block per row, the path chosen on the device from the row's live
// length (never from the padded width). Rows with len <= k get 0..len-1 then -1. Longer rows: a
// radix select on the order-preserving 32-bit key in three digits (11, 11, 10 bits; shared-memory
// histogram, a CUB scan picks each digit, stopping early once every key sharing the prefix is
// needed) finds the prefix of the k-th largest key and how many keys on it are needed; then an
// ordered pass writes every key above the prefix and the lowest-index keys on it at position
// (#above before i) + min(#on it before i, needed): ascending index order, which also satisfies
// deterministic=True, and exact, since every pass counts every candidate.
//
// Reads of the row: the first digit's histogram; then each warp copies the keys of its chunk at
// or above the first-digit prefix, in index order, into its own segment of a shared-memory
// candidate buffer, and the other digits and the ordered write walk only those: two reads instead
// of five (the whole row is walked again only when a segment overflows). A row whose keys fit in
// shared memory beside that buffer is read from HBM once, staged, with the first digit counted on
// the way. Each warp walks one contiguous chunk in 32-wide steps, so its ballots follow index
// order and an ordered pass needs one exchange of per-warp counts; 8 loads in flight per thread,
// 32-bit positions. (Measured on H100: the per-element instruction count, not bandwidth, bounds
// this kernel; one dependent load per iteration took 85 us for a 65536-wide row.)
#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <atomic>

#include "../common/topk_math.h"
#include "cuda_common.cuh"
#include "cuda_ops.h"

namespace dsv4::cuda {

namespace {

constexpr int kRadixPasses = 3;
constexpr int kBins = 1 << 11;
constexpr int kUnroll = 8;  // loads in flight per thread per step group
// Dynamic shared memory a block may use for the staged row and the candidate buffer.
constexpr size_t kMaxDynamicSmem = 200 * 1024;
constexpr uint32_t kMaxCandidates = 8192;

__device__ __forceinline__ int digit_bits(int pass) { return pass < 2 ? 11 : 10; }
__device__ __forceinline__ int digit_shift(int pass) { return pass == 0 ? 21 : (pass == 1 ? 10 : 0); }

template <int kThreads>
struct Shared {
  static constexpr int kWarps = kThreads / kWarp;
  static constexpr int kBinsPerThread = kBins / kThreads;
  using Scan = cub::BlockScan<uint32_t, kThreads>;
  typename Scan::TempStorage scan;
  uint32_t hist[kBins];
  uint32_t sel_digit, sel_remaining, sel_count;
  uint32_t warp_count[2][kWarps];
};

// Where a walk reads its keys: the row in global memory (re-read per pass), the row's keys staged
// in shared memory, or the index-ordered candidate buffer (keys and their row indices).
struct GlobalRow {
  const float* row;
  int64_t col_stride;
  __device__ uint32_t key(uint32_t j) const { return topk_key(__ldg(row + int64_t(j) * col_stride)); }
  __device__ uint32_t index(uint32_t j) const { return j; }
};
struct StagedRow {
  const uint32_t* keys;
  __device__ uint32_t key(uint32_t j) const { return keys[j]; }
  __device__ uint32_t index(uint32_t j) const { return j; }
};
struct Candidates {
  const uint32_t* keys;
  const uint32_t* indices;
  __device__ uint32_t key(uint32_t j) const { return keys[j]; }
  __device__ uint32_t index(uint32_t j) const { return indices[j]; }
};

// A walk over entries of a source. Chunked: warp w owns [w * chunk, (w + 1) * chunk) of n entries;
// segment: each warp walks its own [begin, begin + count). Lane l sees entry first + 32 * s at step
// s, so a warp's ballots follow entry order and every lane of a warp runs the same steps. 32-bit
// positions: rows are shorter than 2^31.
template <int kThreads, class Source>
struct Walk {
  Source src;
  uint32_t first, end, steps;

  __device__ static Walk chunked(Source src, uint32_t n) {
    constexpr uint32_t kWarps = kThreads / kWarp;
    const uint32_t chunk = ((n + kWarps - 1) / kWarps + kWarp - 1) / kWarp * kWarp;
    return Walk{src, (threadIdx.x / kWarp) * chunk + threadIdx.x % kWarp, n, chunk / kWarp};
  }
  __device__ static Walk segment(Source src, uint32_t begin, uint32_t count) {
    return Walk{src, begin + threadIdx.x % kWarp, begin + count, (count + kWarp - 1) / kWarp};
  }

  // f(row index, key, valid) for each step in entry order.
  template <class F>
  __device__ __forceinline__ void for_each(F&& f) const {
    for (uint32_t s0 = 0; s0 < steps; s0 += kUnroll) {
      uint32_t keys[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const uint32_t j = first + (s0 + u) * kWarp;
        keys[u] = j < end ? src.key(j) : 0u;
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const uint32_t j = first + (s0 + u) * kWarp;
        if (s0 + u < steps) f(j < end ? src.index(j) : 0u, keys[u], j < end);
      }
    }
  }
};

// Copies a row's keys into shared memory (16-byte loads when the row allows them) and counts the
// first digit of each into the (cleared) histogram on the way.
template <int kThreads>
__device__ void stage_row(const float* row, uint32_t len, int64_t col_stride, uint32_t* staged,
                          Shared<kThreads>& sh) {
  const auto put = [&](uint32_t i, float x) {
    const uint32_t key = topk_key(x);
    staged[i] = key;
    atomicAdd(&sh.hist[key >> digit_shift(0)], 1u);
  };
  uint32_t done = 0;
  if (col_stride == 1 && aligned16(row)) {
    const uint32_t quads = len / 4;
    const float4* src = reinterpret_cast<const float4*>(row);
#pragma unroll 4
    for (uint32_t q = threadIdx.x; q < quads; q += kThreads) {
      const float4 v = __ldg(src + q);
      put(4 * q, v.x);
      put(4 * q + 1, v.y);
      put(4 * q + 2, v.z);
      put(4 * q + 3, v.w);
    }
    done = quads * 4;
  }
#pragma unroll 4
  for (uint32_t i = done + threadIdx.x; i < len; i += kThreads) put(i, __ldg(row + int64_t(i) * col_stride));
  __syncthreads();
}

// Per-warp counts of two predicates over a walk, exchanged once: returns, for this warp, how many
// entries before its chunk satisfy each (in entry order).
template <int kThreads, class W, class P0, class P1>
__device__ void warp_bases(const W& walk, P0&& p0, P1&& p1, uint32_t& base0, uint32_t& base1,
                           Shared<kThreads>& sh) {
  uint32_t n0 = 0, n1 = 0;
  walk.for_each([&](uint32_t, uint32_t key, bool valid) {
    n0 += __popc(__ballot_sync(0xffffffffu, valid && p0(key)));
    n1 += __popc(__ballot_sync(0xffffffffu, valid && p1(key)));
  });
  const int warp = threadIdx.x / kWarp;
  if (threadIdx.x % kWarp == 0) {
    sh.warp_count[0][warp] = n0;
    sh.warp_count[1][warp] = n1;
  }
  __syncthreads();
  base0 = base1 = 0;
  for (int w = 0; w < warp; ++w) {
    base0 += sh.warp_count[0][w];
    base1 += sh.warp_count[1][w];
  }
  __syncthreads();  // warp_count is rewritten by the next exchange
}

// The radix state: keys whose masked value is above `prefix` are selected, and `remaining` more
// among those equal to it.
struct Selection {
  uint32_t prefix = 0, mask = 0, remaining = 0, on_prefix = 0;  // on_prefix: keys equal to prefix
};

__device__ __forceinline__ void clear_hist(uint32_t* hist, int threads) {
  for (int b = threadIdx.x; b < kBins; b += threads) hist[b] = 0;
  __syncthreads();
}

// After the histogram of digit `pass` over the keys equal to sel.prefix under sel.mask: the digit
// (from the top) where the running count reaches sel.remaining.
template <int kThreads>
__device__ void pick_digit(int pass, Selection& sel, Shared<kThreads>& sh) {
  using S = Shared<kThreads>;
  // Thread q holds the bins at descending positions q * B .. q * B + B - 1.
  uint32_t count[S::kBinsPerThread], above[S::kBinsPerThread];
#pragma unroll
  for (int j = 0; j < S::kBinsPerThread; ++j) count[j] = sh.hist[kBins - 1 - (threadIdx.x * S::kBinsPerThread + j)];
  typename S::Scan(sh.scan).ExclusiveSum(count, above);
#pragma unroll
  for (int j = 0; j < S::kBinsPerThread; ++j) {
    if (count[j] != 0 && above[j] < sel.remaining && above[j] + count[j] >= sel.remaining) {
      sh.sel_digit = uint32_t(kBins - 1 - (threadIdx.x * S::kBinsPerThread + j));
      sh.sel_remaining = sel.remaining - above[j];
      sh.sel_count = count[j];
    }
  }
  __syncthreads();
  const int shift = digit_shift(pass);
  sel.prefix |= sh.sel_digit << shift;
  sel.mask |= ((1u << digit_bits(pass)) - 1u) << shift;
  sel.remaining = sh.sel_remaining;
  sel.on_prefix = sh.sel_count;
  __syncthreads();  // hist, scan storage and sel_* are rewritten next
}

// One radix digit: histogram over the walk, then pick_digit.
template <int kThreads, class W>
__device__ void select_digit(const W& walk, int pass, Selection& sel, Shared<kThreads>& sh) {
  const int shift = digit_shift(pass);
  const uint32_t digit_mask = (1u << digit_bits(pass)) - 1u;
  clear_hist(sh.hist, kThreads);
  walk.for_each([&](uint32_t, uint32_t key, bool valid) {
    if (valid && (key & sel.mask) == sel.prefix) atomicAdd(&sh.hist[(key >> shift) & digit_mask], 1u);
  });
  __syncthreads();
  pick_digit(pass, sel, sh);
}

// The remaining digits from `pass` on (none once every key on the prefix is needed), then the
// ordered write: entry i goes to (#above before i) + min(#on the prefix before i, needed).
template <int kThreads, class W>
__device__ void finish_row(const W& walk, int pass, Selection sel, int32_t* out, Shared<kThreads>& sh) {
  for (; pass < kRadixPasses && sel.on_prefix != sel.remaining; ++pass) select_digit(walk, pass, sel, sh);
  const auto above = [&](uint32_t key) { return (key & sel.mask) > sel.prefix; };
  const auto on = [&](uint32_t key) { return (key & sel.mask) == sel.prefix; };
  uint32_t g, e;
  warp_bases(walk, above, on, g, e, sh);
  const uint32_t lanes_below = (1u << (threadIdx.x % kWarp)) - 1u, need = sel.remaining;
  walk.for_each([&](uint32_t i, uint32_t key, bool valid) {
    const bool gt = valid && above(key), eq = valid && on(key);
    const uint32_t b_gt = __ballot_sync(0xffffffffu, gt), b_eq = __ballot_sync(0xffffffffu, eq);
    const uint32_t my_g = g + __popc(b_gt & lanes_below), my_e = e + __popc(b_eq & lanes_below);
    if (gt || (eq && my_e < need)) out[my_g + (my_e < need ? my_e : need)] = int32_t(i);
    g += __popc(b_gt);
    e += __popc(b_eq);
  });
}

// A row longer than k whose first digit has been counted into the histogram: pick it; then each
// warp copies the keys of its chunk at or above the first-digit prefix, in index order, into its
// own segment of the candidate buffer, and the other digits and the ordered write walk only those
// (two reads of the row instead of five). If the bin is needed whole, or a warp's candidates
// overflow its segment, the selection goes on over the whole row (exact either way).
template <int kThreads, class Source>
__device__ void select_row(Source src, uint32_t len, uint32_t k, uint32_t* cand_keys, uint32_t* cand_idx,
                           uint32_t cand_cap, int32_t* out, Shared<kThreads>& sh) {
  constexpr uint32_t kWarps = kThreads / kWarp;
  const auto row = Walk<kThreads, Source>::chunked(src, len);
  Selection sel;
  sel.remaining = k;
  pick_digit(0, sel, sh);
  if (sel.on_prefix == sel.remaining) return finish_row(row, 1, sel, out, sh);

  const uint32_t warp = threadIdx.x / kWarp, lanes_below = (1u << (threadIdx.x % kWarp)) - 1u;
  const uint32_t seg_cap = cand_cap / kWarps, seg_begin = warp * seg_cap;
  uint32_t n = 0;
  row.for_each([&](uint32_t i, uint32_t key, bool valid) {
    const bool c = valid && (key & sel.mask) >= sel.prefix;
    const uint32_t b = __ballot_sync(0xffffffffu, c);
    const uint32_t pos = n + __popc(b & lanes_below);
    if (c && pos < seg_cap) {
      cand_keys[seg_begin + pos] = key;
      cand_idx[seg_begin + pos] = i;
    }
    n += __popc(b);
  });
  if (threadIdx.x % kWarp == 0) sh.warp_count[0][warp] = n;
  __syncthreads();
  bool overflow = false;
  for (uint32_t w = 0; w < kWarps; ++w) overflow |= sh.warp_count[0][w] > seg_cap;
  if (overflow) return finish_row(row, 1, sel, out, sh);
  finish_row(Walk<kThreads, Candidates>::segment(Candidates{cand_keys, cand_idx}, seg_begin, n), 1, sel, out, sh);
}

// Dynamic shared memory: `staged_cap` staged keys, then `cand_cap` candidate keys and indices.
template <int kThreads>
__global__ void __launch_bounds__(kThreads) topk_kernel(TopKParams p, uint32_t staged_cap, uint32_t cand_cap) {
  __shared__ Shared<kThreads> sh;
  extern __shared__ uint32_t dyn[];
  uint32_t* staged = dyn;
  uint32_t* cand_keys = dyn + staged_cap;
  uint32_t* cand_idx = cand_keys + cand_cap;
  for (int64_t r = blockIdx.x; r < p.rows; r += gridDim.x) {
    int64_t start = 0, len = 0;
    topk_row_window(p, r, &start, &len);
    int32_t* out = p.indices + r * p.indices_row_stride;
    const float* row = p.logits + r * p.logits_row_stride + start * p.logits_col_stride;
    const uint32_t k = uint32_t(p.k);
    if (len <= p.k) {
      for (int64_t i = threadIdx.x; i < p.k; i += kThreads) out[i] = i < len ? int32_t(i) : -1;
    } else if (len <= staged_cap) {
      clear_hist(sh.hist, kThreads);
      stage_row<kThreads>(row, uint32_t(len), p.logits_col_stride, staged, sh);
      select_row<kThreads>(StagedRow{staged}, uint32_t(len), k, cand_keys, cand_idx, cand_cap, out, sh);
    } else {
      const GlobalRow src{row, p.logits_col_stride};
      clear_hist(sh.hist, kThreads);
      Walk<kThreads, GlobalRow>::chunked(src, uint32_t(len)).for_each([&](uint32_t, uint32_t key, bool valid) {
        if (valid) atomicAdd(&sh.hist[key >> digit_shift(0)], 1u);
      });
      __syncthreads();
      select_row<kThreads>(src, uint32_t(len), k, cand_keys, cand_idx, cand_cap, out, sh);
    }
    __syncthreads();  // shared storage is reused by the next row
  }
}

template <int kThreads>
int launch(const TopKParams& p, cudaStream_t s) {
  // Candidate buffer: room for k plus a first-digit bin (capped); the staged row when it fits beside it.
  const int64_t want = std::max<int64_t>(int64_t(p.k) * 2, kMaxCandidates);
  const uint32_t cand_cap = uint32_t(std::min<int64_t>({p.width, want, int64_t(kMaxCandidates)}));
  const size_t cand_bytes = size_t(cand_cap) * 2 * sizeof(uint32_t);
  const bool stage = cand_bytes + size_t(p.width) * sizeof(uint32_t) <= kMaxDynamicSmem;
  const uint32_t staged_cap = stage ? uint32_t(p.width) : 0u;
  const size_t smem = cand_bytes + size_t(staged_cap) * sizeof(uint32_t);
  if (smem > 48 * 1024) {  // the opt-in above 48 KB, set once per device
    constexpr int kMaxDevices = 64;
    static std::atomic<bool> opted_in[kMaxDevices] = {};
    int device = 0;
    if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return int(e);
    if (device >= kMaxDevices || !opted_in[device].load(std::memory_order_relaxed)) {
      const cudaError_t e = cudaFuncSetAttribute(topk_kernel<kThreads>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 int(kMaxDynamicSmem));
      if (e != cudaSuccess) return int(e);
      if (device < kMaxDevices) opted_in[device].store(true, std::memory_order_relaxed);
    }
  }
  const unsigned grid = unsigned(p.rows < 65535LL * 32 ? p.rows : 65535LL * 32);
  topk_kernel<kThreads><<<grid, kThreads, smem, s>>>(p, staged_cap, cand_cap);
  return int(cudaGetLastError());
}

}  // namespace

int top_k_per_row(const TopKParams& p, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  // Launch shape only (every shape runs the same selection and gives the same results): a few
  // rows (decode) get 1024 threads per row; many rows smaller blocks the narrower they are, so
  // that several rows share an SM.
  if (p.rows < 512 || p.width > 16384) return launch<1024>(p, s);
  if (p.width > 4096) return launch<512>(p, s);
  return launch<256>(p, s);
}

}  // namespace dsv4::cuda
