// top_k_per_row on CUDA: one block per row (few rows: a cluster of blocks per row, each taking a
// slice), the path chosen on the device from the row's live length (never from the padded
// width). Rows with len <= k get 0..len-1 then -1. Longer rows: a
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
//
// Long rows. A block stages at most 34816 keys (136 KiB beside a 64 KiB candidate buffer, one
// 1024-thread block per SM). A wider row takes a thread-block cluster of the fewest blocks
// (2, 4 or 8: up to 278528 columns) whose contiguous slices stage, so it is read from HBM once
// whatever the row count; histograms are summed over DSMEM, offsets ordered across the cluster.
// 2048 x 131072 fp32 (512 KiB a row, 1 GiB in all, 0.36 ms at 3 TB/s): clusters of 4, 8192
// blocks of 32768 keys; each slice is the work of one 32768-wide row of the unclustered path
// (~15 us per SM at 4096 x 32768), so ~1.0 ms was expected; measured 1.6 ms (2.06 ms when the row
// was walked from global memory 2-5 times): the cluster's blocks wait for its slowest at each
// barrier and a cluster needs 4 free SMs of one GPC at once. Decode keeps its own shape (few rows:
// spread over the SMs), since 8-block staged clusters measured slower at 64 x 262144 (4 waves).
// Rows past 278528 still walk global memory.
#include <cooperative_groups.h>
#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

#include "../common/topk_math.h"
#include "cuda_common.cuh"
#include "cuda_ops.h"

namespace dsv4::cuda {

namespace {

namespace cg = cooperative_groups;

constexpr int kUnroll = 8;  // loads in flight per thread per step group
// Dynamic shared memory a block may use for its staged slice and its candidate buffer.
constexpr size_t kMaxDynamicSmem = 200 * 1024;
constexpr uint32_t kMaxCandidates = 8192;
constexpr int kMaxClusterBlocks = 8;  // the portable cluster size

template <int kThreads, int kHistBuffers = 1>
struct Shared {
  static constexpr int kWarps = kThreads / kWarp;
  static constexpr int kBinsPerThread = kTopkBins / kThreads;
  using Scan = cub::BlockScan<uint32_t, kThreads>;
  typename Scan::TempStorage scan;
  uint32_t hist[kHistBuffers * kTopkBins];  // RowGroup::hist_offset picks the one in use
  uint32_t sel_digit, sel_remaining, sel_count;
  uint32_t warp_count[2][kWarps];
  uint32_t block_count[2];  // read by the later blocks of the cluster
};

// The blocks that share a row: a thread-block cluster splits a row into contiguous slices, so
// that each slice is staged (rows too long for one block's shared memory) or one row uses several
// SMs (few rows); histograms are summed and ordered-write offsets exchanged through distributed
// shared memory. Unclustered: one block per row and plain barriers, with no cluster code in the
// kernel.
//
// Cluster barriers: one after each histogram (pick_digit) and one before the offsets are read
// (ordered_bases), nothing else per row. The histograms alternate between two buffers, so a
// block clears the next one while others may still read the last one; a buffer is rewritten only
// two histograms later, after a cluster barrier that every block reaches after its reads of it.
// block_count is rewritten in the next row's ordered_bases, after that row's first pick_digit
// barrier. The blocks pass one last barrier before they exit (remote shared memory must outlive
// its readers).
template <bool kClusteredT>
struct RowGroup {
  static constexpr bool kClustered = kClusteredT;
  static constexpr int kHistBuffers = kClustered ? 2 : 1;
  uint32_t rank = 0, size = 1;
  uint32_t hist_offset = 0;  // the histogram buffer in use, from Shared::hist
  // Starts the next histogram in the other buffer.
  __device__ void next_hist() {
    if constexpr (kClustered) hist_offset ^= kTopkBins;
  }
  __device__ void sync() const {
    if constexpr (kClustered) {
      cg::this_cluster().sync();
    } else {
      __syncthreads();
    }
  }
  template <class T>
  __device__ T* remote(T* p, uint32_t r) const { return cg::this_cluster().map_shared_rank(p, r); }
};

template <int kThreads, class G>
using SharedFor = Shared<kThreads, G::kHistBuffers>;

// Where a walk reads its keys: the slice in global memory (re-read per pass), the slice's keys
// staged in shared memory, or the index-ordered candidate buffer (keys and their row indices).
struct GlobalSlice {
  const float* slice;
  int64_t col_stride;
  uint32_t offset;  // row index of entry 0
  __device__ uint32_t key(uint32_t j) const { return topk_key(__ldg(slice + int64_t(j) * col_stride)); }
  __device__ uint32_t index(uint32_t j) const { return offset + j; }
};
struct StagedSlice {
  const uint32_t* keys;
  uint32_t offset;
  __device__ uint32_t key(uint32_t j) const { return keys[j]; }
  __device__ uint32_t index(uint32_t j) const { return offset + j; }
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

__device__ __forceinline__ void clear_hist(uint32_t* hist, int threads) {
  for (int b = threadIdx.x; b < kTopkBins; b += threads) hist[b] = 0;
  __syncthreads();
}

__device__ __forceinline__ void count_first_digit(uint32_t* hist, uint32_t key) {
  atomicAdd(&hist[key >> topk_digit_shift(0)], 1u);
}

// Copies a slice's keys into shared memory (16-byte loads when it allows them) and counts their
// first digit into the (cleared) histogram on the way.
template <int kThreads>
__device__ void stage_slice(const float* slice, uint32_t n, int64_t col_stride, uint32_t* staged,
                            uint32_t* hist) {
  const auto put = [&](uint32_t i, float x) {
    staged[i] = topk_key(x);
    count_first_digit(hist, staged[i]);
  };
  uint32_t done = 0;
  if (col_stride == 1 && aligned16(slice)) {
    const uint32_t quads = n / 4;
    const float4* src = reinterpret_cast<const float4*>(slice);
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
  for (uint32_t i = done + threadIdx.x; i < n; i += kThreads) put(i, __ldg(slice + int64_t(i) * col_stride));
}

// The radix state: keys whose masked value is above `prefix` are selected, and `remaining` more
// among those equal to it (`on_prefix` of them exist).
struct Selection {
  uint32_t prefix = 0, mask = 0, remaining = 0, on_prefix = 0;
};

// After every block of the group has counted digit `pass` of its keys equal to sel.prefix under
// sel.mask into its histogram: the digit (from the top) where the group's running count reaches
// sel.remaining. Every block computes the same answer.
template <int kThreads, class G>
__device__ void pick_digit(int pass, Selection& sel, SharedFor<kThreads, G>& sh, const G& g) {
  using S = SharedFor<kThreads, G>;
  g.sync();  // all histograms complete
  // Thread q holds the bins ranked q * B .. q * B + B - 1 from the top.
  uint32_t count[S::kBinsPerThread], above[S::kBinsPerThread];
#pragma unroll
  for (int j = 0; j < S::kBinsPerThread; ++j) count[j] = 0;
  for (uint32_t r = 0; r < g.size; ++r) {
    const uint32_t* hist = sh.hist + g.hist_offset;
    if constexpr (G::kClustered) hist = g.remote(sh.hist + g.hist_offset, r);
#pragma unroll
    for (int j = 0; j < S::kBinsPerThread; ++j)
      count[j] += hist[kTopkBins - 1 - (threadIdx.x * S::kBinsPerThread + j)];
  }
  typename S::Scan(sh.scan).ExclusiveSum(count, above);
#pragma unroll
  for (int j = 0; j < S::kBinsPerThread; ++j) {
    if (count[j] != 0 && above[j] < sel.remaining && above[j] + count[j] >= sel.remaining) {
      sh.sel_digit = uint32_t(kTopkBins - 1 - (threadIdx.x * S::kBinsPerThread + j));
      sh.sel_remaining = sel.remaining - above[j];
      sh.sel_count = count[j];
    }
  }
  __syncthreads();
  const int shift = topk_digit_shift(pass);
  sel.prefix |= sh.sel_digit << shift;
  sel.mask |= topk_digit_mask(pass) << shift;
  sel.remaining = sh.sel_remaining;
  sel.on_prefix = sh.sel_count;
  // Scan storage and sel_* are rewritten next. Across the cluster no barrier: the next histogram
  // goes into the other buffer (RowGroup).
  __syncthreads();
}

// One radix digit: histogram over the walk, then pick_digit.
template <int kThreads, class W, class G>
__device__ void select_digit(const W& walk, int pass, Selection& sel, SharedFor<kThreads, G>& sh, G& g) {
  const int shift = topk_digit_shift(pass);
  const uint32_t digit_mask = topk_digit_mask(pass);
  g.next_hist();
  uint32_t* hist = sh.hist + g.hist_offset;
  clear_hist(hist, kThreads);
  walk.for_each([&](uint32_t, uint32_t key, bool valid) {
    if (valid && (key & sel.mask) == sel.prefix) atomicAdd(&hist[(key >> shift) & digit_mask], 1u);
  });
  pick_digit(pass, sel, sh, g);
}

// How many entries before this warp's part of the row (earlier blocks of the group, earlier
// warps of this block) are above and on the prefix: per-warp counts, one exchange in the block,
// one across the group.
template <int kThreads, class W, class G>
__device__ void ordered_bases(const W& walk, const Selection& sel, uint32_t& above_base, uint32_t& on_base,
                              SharedFor<kThreads, G>& sh, const G& g) {
  uint32_t n_above = 0, n_on = 0;
  walk.for_each([&](uint32_t, uint32_t key, bool valid) {
    n_above += __popc(__ballot_sync(0xffffffffu, valid && (key & sel.mask) > sel.prefix));
    n_on += __popc(__ballot_sync(0xffffffffu, valid && (key & sel.mask) == sel.prefix));
  });
  const int warp = threadIdx.x / kWarp;
  if (threadIdx.x % kWarp == 0) {
    sh.warp_count[0][warp] = n_above;
    sh.warp_count[1][warp] = n_on;
  }
  __syncthreads();
  above_base = on_base = 0;
  uint32_t block_above = 0, block_on = 0;
  for (int w = 0; w < SharedFor<kThreads, G>::kWarps; ++w) {
    if (w == warp) {
      above_base = block_above;
      on_base = block_on;
    }
    block_above += sh.warp_count[0][w];
    block_on += sh.warp_count[1][w];
  }
  if constexpr (G::kClustered) {
    if (threadIdx.x == 0) {
      sh.block_count[0] = block_above;
      sh.block_count[1] = block_on;
    }
    g.sync();
    for (uint32_t r = 0; r < g.rank; ++r) {
      const uint32_t* other = g.remote(sh.block_count, r);
      above_base += other[0];
      on_base += other[1];
    }
  }
}

// The remaining digits from `pass` on (none once every key on the prefix is needed), then the
// ordered write at topk_slot(#above before, #on the prefix before, needed).
template <int kThreads, class W, class G>
__device__ void finish_row(const W& walk, int pass, Selection sel, int32_t* out, SharedFor<kThreads, G>& sh,
                           G& g) {
  for (; pass < kTopkRadixPasses && sel.on_prefix != sel.remaining; ++pass)
    select_digit(walk, pass, sel, sh, g);
  uint32_t a, e;
  ordered_bases(walk, sel, a, e, sh, g);
  const uint32_t lanes_below = (1u << (threadIdx.x % kWarp)) - 1u, need = sel.remaining;
  walk.for_each([&](uint32_t i, uint32_t key, bool valid) {
    const bool gt = valid && (key & sel.mask) > sel.prefix, eq = valid && (key & sel.mask) == sel.prefix;
    const uint32_t b_gt = __ballot_sync(0xffffffffu, gt), b_eq = __ballot_sync(0xffffffffu, eq);
    const uint32_t my_e = e + __popc(b_eq & lanes_below);
    if (gt || (eq && my_e < need)) out[topk_slot(a + __popc(b_gt & lanes_below), my_e, need)] = int32_t(i);
    a += __popc(b_gt);
    e += __popc(b_eq);
  });
}

// A slice of a row longer than k whose first digit every block of the group has counted into its
// histogram: pick it; then each warp copies the keys of its chunk at or above the first-digit
// prefix, in index order, into its own segment of the candidate buffer, and the other digits and
// the ordered write walk only those. If the bin is needed whole, or a warp's candidates overflow
// its segment, this block goes on over its whole slice (exact either way; the group's protocol
// of barriers is the same on both paths).
template <int kThreads, class Source, class G>
__device__ void select_slice(Source src, uint32_t n, uint32_t k, uint32_t* cand_keys, uint32_t* cand_idx,
                             uint32_t cand_cap, int32_t* out, SharedFor<kThreads, G>& sh, G& g) {
  constexpr uint32_t kWarps = kThreads / kWarp;
  const auto slice = Walk<kThreads, Source>::chunked(src, n);
  Selection sel;
  sel.remaining = k;
  pick_digit(0, sel, sh, g);
  if (sel.on_prefix == sel.remaining) return finish_row(slice, 1, sel, out, sh, g);

  const uint32_t warp = threadIdx.x / kWarp, lanes_below = (1u << (threadIdx.x % kWarp)) - 1u;
  const uint32_t seg_cap = cand_cap / kWarps, seg_begin = warp * seg_cap;
  uint32_t count = 0;
  slice.for_each([&](uint32_t i, uint32_t key, bool valid) {
    const bool c = valid && (key & sel.mask) >= sel.prefix;
    const uint32_t b = __ballot_sync(0xffffffffu, c);
    const uint32_t pos = count + __popc(b & lanes_below);
    if (c && pos < seg_cap) {
      cand_keys[seg_begin + pos] = key;
      cand_idx[seg_begin + pos] = i;
    }
    count += __popc(b);
  });
  if (threadIdx.x % kWarp == 0) sh.warp_count[0][warp] = count;
  __syncthreads();
  bool overflow = false;
  for (uint32_t w = 0; w < kWarps; ++w) overflow |= sh.warp_count[0][w] > seg_cap;
  __syncthreads();  // warp_count is rewritten by ordered_bases
  if (overflow) return finish_row(slice, 1, sel, out, sh, g);
  const auto candidates = Walk<kThreads, Candidates>::segment(Candidates{cand_keys, cand_idx}, seg_begin, count);
  finish_row(candidates, 1, sel, out, sh, g);
}

// One row per group of blocks (a cluster; grid = clusters x group size). Dynamic shared memory:
// `staged_cap` staged keys, then `cand_cap` candidate keys and indices.
template <int kThreads, bool kClustered>
__global__ void __launch_bounds__(kThreads) topk_kernel(TopKParams p, uint32_t staged_cap, uint32_t cand_cap) {
  using G = RowGroup<kClustered>;
  __shared__ SharedFor<kThreads, G> sh;
  extern __shared__ uint32_t dyn[];
  uint32_t* staged = dyn;
  uint32_t* cand_keys = dyn + staged_cap;
  uint32_t* cand_idx = cand_keys + cand_cap;
  G g;
  if constexpr (kClustered) {
    g.rank = cg::this_cluster().block_rank();
    g.size = cg::this_cluster().num_blocks();
  }
  for (int64_t r = blockIdx.x / g.size; r < p.rows; r += gridDim.x / g.size) {
    int64_t start = 0, len = 0;
    topk_row_window(p, r, &start, &len);
    int32_t* out = p.indices + r * p.indices_row_stride;
    if (len <= p.k) {
      if (g.rank == 0)
        for (int64_t i = threadIdx.x; i < p.k; i += kThreads) out[i] = i < len ? int32_t(i) : -1;
    } else {
      const int64_t s0 = len * g.rank / g.size, s1 = len * (g.rank + 1) / g.size;
      const uint32_t n = uint32_t(s1 - s0);
      const float* slice = p.logits + r * p.logits_row_stride + (start + s0) * p.logits_col_stride;
      g.next_hist();
      uint32_t* hist = sh.hist + g.hist_offset;
      clear_hist(hist, kThreads);
      if (n <= staged_cap) {
        stage_slice<kThreads>(slice, n, p.logits_col_stride, staged, hist);
        const StagedSlice src{staged, uint32_t(s0)};
        select_slice<kThreads>(src, n, uint32_t(p.k), cand_keys, cand_idx, cand_cap, out, sh, g);
      } else {
        const GlobalSlice src{slice, p.logits_col_stride, uint32_t(s0)};
        Walk<kThreads, GlobalSlice>::chunked(src, n).for_each([&](uint32_t, uint32_t key, bool valid) {
          if (valid) count_first_digit(hist, key);
        });
        select_slice<kThreads>(src, n, uint32_t(p.k), cand_keys, cand_idx, cand_cap, out, sh, g);
      }
    }
    __syncthreads();  // shared storage is reused by the next row (across the cluster: RowGroup)
  }
  if constexpr (kClustered) g.sync();  // the others' last reads of this block's shared memory
}

// Per block: a candidate buffer of up to kMaxCandidates entries (k plus a first-digit bin for the
// index top-k sizes; a larger set falls back to walking the slice), and the staged slice of
// `slice` keys when it fits beside it.
struct SliceSmem {
  uint32_t cand_cap = 0, staged_cap = 0;
  bool staged = false;
  size_t bytes() const { return (size_t(cand_cap) * 2 + staged_cap) * sizeof(uint32_t); }
};
SliceSmem slice_smem(int64_t slice) {
  SliceSmem m;
  m.cand_cap = uint32_t(std::min<int64_t>(slice, kMaxCandidates));
  m.staged = size_t(m.cand_cap) * 2 * sizeof(uint32_t) + size_t(slice) * sizeof(uint32_t) <= kMaxDynamicSmem;
  m.staged_cap = m.staged ? uint32_t(slice) : 0u;
  return m;
}

// The smallest group (1, 2, 4 or 8 blocks) whose per-block slice of a `width`-wide row is staged
// (width <= 34816 alone, <= 278528 with 8 blocks); 0 when none is.
int staging_group(int64_t width) {
  for (int group = 1; group <= kMaxClusterBlocks; group *= 2)
    if (slice_smem((width + group - 1) / group).staged) return group;
  return 0;
}

// The opt-in beyond 48 KB of static + dynamic shared memory, set once per device: 0 or the error.
template <int kThreads, bool kClustered>
int opt_in_smem(int device) {
  static PerDevice opted_in;
  const auto opt_in = [](int) {
    const cudaError_t e = cudaFuncSetAttribute(topk_kernel<kThreads, kClustered>,
                                               cudaFuncAttributeMaxDynamicSharedMemorySize, int(kMaxDynamicSmem));
    return int(e == cudaSuccess);
  };
  if (opted_in.get(device, opt_in)) return 0;
  const cudaError_t e = cudaGetLastError();
  return int(e != cudaSuccess ? e : cudaErrorInvalidValue);
}

// Whether a cluster of `group` 1024-thread blocks with `smem` bytes of dynamic shared memory each
// can be resident on the device (cudaOccupancyMaxActiveClusters > 0; a refused query counts as
// no, e.g. on a MIG slice whose GPCs hold fewer SMs). Asked once per (device, group, smem): the
// query costs host time; it enqueues nothing, so it is legal under stream capture.
bool cluster_fits(int device, int group, size_t smem) {
  static std::mutex mu;
  static std::map<std::tuple<int, int, size_t>, bool> cache;
  const std::lock_guard<std::mutex> lock(mu);
  const auto key = std::make_tuple(device, group, smem);
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  int n = 0;
  if (opt_in_smem<1024, true>(device) == 0) {
    cudaLaunchAttribute attr;
    const cudaLaunchConfig_t cfg = cluster_launch(unsigned(group), 1024, unsigned(group), smem, nullptr, attr);
    if (cudaOccupancyMaxActiveClusters(&n, topk_kernel<1024, true>, &cfg) != cudaSuccess) n = 0;
  }
  cudaGetLastError();  // a refused query is an answer (no), not an error of this launch
  return cache[key] = n > 0;
}

template <int kThreads, bool kClustered>
int launch(const TopKParams& p, int group, int device, cudaStream_t s) {
  const SliceSmem m = slice_smem((p.width + group - 1) / group);
  if (const int e = opt_in_smem<kThreads, kClustered>(device); e != 0) return e;
  const int64_t max_groups = 65535LL * 32 / group;
  const unsigned grid = unsigned((p.rows < max_groups ? p.rows : max_groups) * group);
  if constexpr (!kClustered) {
    topk_kernel<kThreads, false><<<grid, kThreads, m.bytes(), s>>>(p, m.staged_cap, m.cand_cap);
    return int(cudaGetLastError());
  } else {
    cudaLaunchAttribute attr;
    const cudaLaunchConfig_t cfg = cluster_launch(grid, kThreads, unsigned(group), m.bytes(), s, attr);
    return int(cudaLaunchKernelEx(&cfg, topk_kernel<kThreads, true>, p, m.staged_cap, m.cand_cap));
  }
}

}  // namespace

int top_k_per_row(const TopKParams& p, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return int(e);
  // Launch shape only (every shape runs the same selection and gives the same results).
  // Few rows (decode): 1024 threads per block and, for wide rows, a cluster of up to 8 blocks per
  // row so that about one block per SM is busy (64 x 262144 measured 142 us with pairs walking
  // global memory, 165 us with staged clusters of 8 in 4 waves: the pairs stay). Many rows: one
  // block per row, smaller the narrower the rows, so that several rows share an SM; a row too wide
  // for one block's staging takes the smallest cluster whose slices stage (up to 8 blocks, 278528
  // columns), so it is read from HBM once; wider rows walk it from global memory. A cluster the
  // device cannot hold falls back to one block per row.
  int group = 1;
  if (p.rows < 512) {
    const int sms = device_sm_count(device);
    while (group < kMaxClusterBlocks && p.rows * group * 2 <= sms && p.width / (group * 2) >= 4096) group *= 2;
  } else if (p.width > 16384) {
    group = std::max(1, staging_group(p.width));  // staging_group: 0 when no group stages a slice
  } else {
    return p.width > 4096 ? launch<512, false>(p, 1, device, s) : launch<256, false>(p, 1, device, s);
  }
  if (group > 1 && cluster_fits(device, group, slice_smem((p.width + group - 1) / group).bytes()))
    return launch<1024, true>(p, group, device, s);
  return launch<1024, false>(p, 1, device, s);
}

}  // namespace dsv4::cuda
