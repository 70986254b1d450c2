// top_k_per_row on CUDA: one block per row (few rows: a cluster of blocks per row, each taking a
// contiguous slice; rows of at most 2048 columns: one warp per row, up to 8192 a group of warps,
// topk_warp_rows.cu), the path chosen on the device from the row's live length (never from the
// padded width). Rows with len <= k get 0..len-1 then -1.
//
// Longer rows: one streaming read with a sampled threshold, then an exact select on the few
// candidates. Each warp owns a contiguous chunk of the row and walks it 32 entries a step (lane l
// takes entry l, so one ballot per step keeps index order), 8 or 16 loads a lane in flight. The
// first group of steps of every warp (a sample spread over the row) is counted into the first-digit
// histogram; the group's pick of the bin holding the sample's rank ~ k * sample / len (plus a
// margin of 3 standard deviations) sets a threshold tau, that bin's lower edge. The stream compares
// each value with tau (one float compare) and appends those at or above it, in index order, to its
// warp's segment of a shared-memory candidate buffer; each warp then turns its segment into keys
// and counts their first digit. Every key below tau is below every candidate, so when there are >=
// k candidates the top k of the row are the top k of the candidates: a radix select on the
// order-preserving 32-bit key (11, 11, 10-bit digits; a CUB scan picks each digit, one warp in the
// six-block kernel, stopping once every key sharing the prefix is needed) finds the prefix of the
// k-th largest key, and an ordered pass writes every candidate above it and the lowest-index ones
// on it at position (#above before i) + min(#on it before i, needed): ascending index order, which
// also satisfies deterministic=True. When the sample covers the whole row its pick is exact and is
// the candidates' first digit. A sample that misled is caught and costs time, never exactness:
// fewer than k candidates (or a threshold at NaN's key) send the row down the exact fallback (a
// first-digit pass over the row, then the same select over the keys at or above that digit, re-read
// from global memory, L2); a warp whose segment overflows makes its block walk its slice instead of
// its candidates (same keys at or above the prefix, same answer).
//
// Nothing is staged, so a block needs shared memory only for its candidates: four 256-thread blocks
// (six for rows up to 8192) share an SM and one block's stream overlaps another's select (the staged
// design kept one 1024-thread block per SM and never overlapped a row's read with the last row's
// passes). Decode (few rows) spreads a row over a cluster of up to 8 blocks, no more than lets every
// row's cluster be resident at once: histograms are summed over DSMEM, offsets ordered across the
// cluster; blocks whose slice is long keep two groups of stream loads in flight.
#include <cooperative_groups.h>
#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

#include "../common/topk_math.h"
#include "cuda_common.cuh"
#include "cuda_ops.h"
#include "topk_launch.h"

namespace dsv4::cuda {

namespace {

namespace cg = cooperative_groups;

// Loads in flight per thread per step group of a Walk: the slice in global memory needs 8; the
// candidates (shared memory, a few steps a warp) 4, so that short segments waste fewer steps; in the
// 1024-thread (decode) blocks 1: a warp's segment there is a step or two, and a decode row waited on
// instruction fetch for 27 % of its stall samples, a third of them in the walks' unrolled copies
// (decode 2-6 % faster at every shape, benchmarks/NOTES.md, session 22).
template <int kThreads, class Source>
constexpr int walk_unroll() { return Source::kShared ? (kThreads >= 1024 ? 1 : 4) : 8; }
// Loads a lane keeps in flight while streaming: 256 threads x 4 blocks x 16 x 4 B = 64 KB in flight
// per SM, ~2x what Little's law asks at the HBM roof (23 GB/s per SM x ~1.3 us). Narrow rows (six
// 256-thread blocks, 40 registers) take 8: their time goes to per-row chains. So do the 1024-thread
// decode blocks: a warp there has few steps (8 for a 65536-wide row over a cluster of 8), and a
// 16-step group ran half its steps past the slice (decode 8-10 % faster with 8, benchmarks/NOTES.md).
constexpr int stream_steps(int threads, int blocks) { return threads < 1024 && threads * blocks <= 1024 ? 16 : 8; }
// Clusters whose blocks stream long slices (kLongSlice keys and more) keep two groups of
// kTwoGroupSteps loads a lane in flight: the next group is issued before this one is taken, so a
// warp never waits with nothing in flight (64 x 262144 k = 2048: 41.2-41.3 against 41.8-42.0 us in
// one call; groups of 5, 6 or 8 spill more and measured slower). The sample is then a group of 4
// steps a warp. Shorter slices keep one group of 8, whose sample covers a 1024-thread block's 8192
// keys whole (benchmarks/NOTES.md).
constexpr int kTwoGroupSteps = 4;
constexpr int64_t kLongSlice = 16384;
// Groups of stream steps a warp prefetches into L2 ahead of its loads: two in the six-block kernel
// (rows of 4097-8192 columns: 8192 x 8192 146-148 against 152-162 us); none elsewhere, where it
// measured no gain (4096 x 32768, decode) or a loss (2048 x 131072: 444 against 398 us;
// benchmarks/NOTES.md).
constexpr uint32_t stream_prefetch(int threads, int blocks) {
  return threads < 1024 && threads * blocks > 1024 ? 2 : 0;
}
// Blocks per SM the registers must allow by default: one of 1024 threads (decode), six of 256 (40
// registers; rows up to 8192). Wider rows take four of 256 (64 registers): four rows in flight an
// SM measured 7 % faster than two 512-thread blocks (benchmarks/NOTES.md).
constexpr int min_blocks(int threads) { return threads >= 1024 ? 1 : 6; }
// Candidate buffer of a block (keys + indices, 8 bytes an entry), sized so that the blocks fit an
// SM's shared memory. A warp's segment (cap / warps) must hold its chunk's candidates, ~k / len of
// it plus a first-digit bin (~9 % of a 32768-wide row: ~370 of a wide block's 704 a warp).
constexpr uint32_t kMaxCandidates = 8192;        // 1024-thread blocks: 64 KiB
constexpr uint32_t kMaxNarrowCandidates = 3328;  // six 256-thread blocks: 26 KiB each
constexpr uint32_t kMaxWideCandidates = 5632;    // four 256-thread blocks: 44 KiB each
constexpr uint32_t max_candidates(int threads, int blocks) {
  return threads >= 1024 ? kMaxCandidates : (blocks <= 4 ? kMaxWideCandidates : kMaxNarrowCandidates);
}
constexpr int kMaxClusterBlocks = 8;  // the portable cluster size
constexpr uint32_t kPushFrom = 4;     // cluster sizes that push their histograms (RowGroup)
// Clusters of 4-8 whose blocks' slices hold fewer than 65536 keys exchange their histograms
// all-to-all as 16-bit bins (RowGroup, kA2a kernels); the receive buffers, [2][cluster size][bins / 2]
// words, lie in front of the candidates in dynamic shared memory.
constexpr bool a2a_exchange(int64_t width, int cluster) {
  return cluster >= int(kPushFrom) && width <= int64_t(65535) * cluster;
}
__host__ __device__ constexpr uint32_t a2a_recv_words(uint32_t cluster) { return cluster * kTopkBins; }

template <int kThreads, bool kClustered = false, bool kSums = kClustered>
struct Shared {
  static constexpr int kWarps = kThreads / kWarp;
  static constexpr int kBinsPerThread = kTopkBins / kThreads;
  using Scan = cub::BlockScan<uint32_t, kThreads>;
  typename Scan::TempStorage scan;
  // This block's counts; clustered, two buffers (RowGroup::hist_offset picks the one in use) and
  // (kSums) the cluster's sums, pushed into every block by every block (RowGroup::sum_offset;
  // clusters of 2: the other block's histogram).
  alignas(16) uint32_t hist[(kClustered ? 2 : 1) * kTopkBins];
  alignas(16) uint32_t sum[kSums ? 2 * kTopkBins : 4];
  uint32_t sel_digit, sel_remaining, sel_count, sel_total;
  uint32_t warp_count[2][kWarps];
  // Clustered: the above / on-prefix counts of the lower-rank blocks of the cluster, slot per rank,
  // written by those blocks (st.async) and complete when counts_full's phase does.
  alignas(8) uint32_t lower_count[kClustered ? kMaxClusterBlocks : 1][2];
  alignas(8) uint64_t counts_full;
  // Clusters of 2: the other block's histogram in sum[]; kA2a: the others' in the receive buffers.
  alignas(8) uint64_t hist_full[2];
};

// The blocks that share a row: a thread-block cluster splits a row into contiguous slices, so
// that one row uses several SMs (few rows); histograms are summed and ordered-write offsets
// exchanged through distributed shared memory. Unclustered: one block per row and plain barriers,
// no state and no cluster code in the kernel.
//
// Exchanges per row: a histogram per pick (pick_digit) and the ordered write's counts
// (ordered_bases). Clusters of 2 send their histogram (8 KB, st.async) into the other block's sum
// buffer and wait on an mbarrier that those bytes complete: no cluster barrier at all (a barrier
// per pick cost ~2 us a decode call of 64 rows, benchmarks/NOTES.md); the two sum buffers
// alternate, and a block sends into one again only after the other block's next histogram has
// arrived, which that block sends after reading the buffer. Clusters of 4-8 whose slices hold
// fewer than 65536 keys (kA2a) do the same all-to-all: a block packs its bins as 16-bit counts
// (4 KB) and sends them into its rank's slot of every other block's receive buffer, whose mbarrier
// completes when all size - 1 have arrived; no remote adds and no cluster barrier, which waited for
// them (~3 K cycles a pick, decode 1 x 65536 and 1 x 262144 7-8 % faster, benchmarks/NOTES.md).
// Longer slices push: a block adds its nonzero bins into every block's sum buffer before a cluster
// barrier and picks from its own copy; the sums alternate between two buffers, a block clears the
// one it read before it arrives at the next barrier, and the next pushes into it come after the
// barrier after that. The ordered write's counts travel by st.async into the higher ranks' lower_count
// slots and complete an mbarrier there, so a block waits only for the lower ranks (a cluster
// barrier there cost ~0.8 us a decode call); a slot is rewritten a row later only after an
// exchange of that row's first pick, which this block joins after reading it. The mbarriers are
// initialised before the kernel's first cluster barrier, waited on before the first exchange. The
// blocks pass one last barrier before they exit (remote shared memory must outlive its users).
// kWarpPick: an unclustered block picks its digits with one warp (pick_top_down) rather than a
// block-wide CUB scan.
template <bool kClusteredT, bool kWarpPickT = false, bool kA2aT = false>
struct RowGroup;

template <bool kWarpPickT>
struct RowGroup<false, kWarpPickT, false> {
  static constexpr bool kClustered = false, kWarpPick = kWarpPickT, kA2a = false;
  static constexpr uint32_t rank = 0, size = 1, hist_offset = 0;
  __device__ void next_hist() {}
  __device__ void sync() const { __syncthreads(); }
};

template <bool kA2aT>
struct RowGroup<true, false, kA2aT> {
  static constexpr bool kClustered = true, kWarpPick = false, kA2a = kA2aT;
  uint32_t rank, size;
  uint32_t hist_offset = 0;  // this block's histogram buffer in use, in Shared::hist
  uint32_t sum_offset = 0;  // the sum buffer of the next pick, in Shared::sum
  bool start_pending = false;  // the kernel's first cluster barrier (RowGroup) is not yet waited on
  uint32_t counts_phase = 0;  // parity of Shared::counts_full's next phase (one a row)
  uint32_t hist_phases = 0;  // clusters of 2 and kA2a: bit b, parity of Shared::hist_full[b]'s next phase
  __device__ bool push() const { return !kA2a && size >= kPushFrom; }
  // Starts the next histogram in the other buffer.
  __device__ void next_hist() { hist_offset ^= kTopkBins; }
  __device__ void sync() const { cg::this_cluster().sync(); }
  template <class T>
  __device__ T* remote(T* p, uint32_t r) const { return cg::this_cluster().map_shared_rank(p, r); }
  // The last barrier before exit only waits for the others' accesses to this block's shared
  // memory (their loads completed before they arrived): no release, so no fence behind this
  // block's output stores.
  __device__ static void exit_sync() {
    asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
  }
};

template <int kThreads, class G>
using SharedFor = Shared<kThreads, G::kClustered, G::kClustered && !G::kA2a>;

// Where a walk reads its keys: the slice in global memory (the fallback, re-read per pass) or the
// index-ordered candidate buffer (keys and their row indices). Every key of these kernels is
// topk_row_key (topk_key's order in five instructions; NaN at 1, still below -inf and in digit 0's
// bin, and never a candidate), so keys from the stream, the sample and the slice compare alike.
struct GlobalSlice {
  static constexpr bool kShared = false;
  const float* slice;
  int64_t col_stride;
  uint32_t offset;  // row index of entry 0
  __device__ uint32_t key(uint32_t j) const { return topk_row_key(__ldg(slice + int64_t(j) * col_stride)); }
  __device__ uint32_t index(uint32_t j) const { return offset + j; }
};
struct Candidates {
  static constexpr bool kShared = true;
  const uint2* entries;  // {key, row index}
  __device__ uint32_t key(uint32_t j) const { return entries[j].x; }
  __device__ uint32_t index(uint32_t j) const { return entries[j].y; }
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
    constexpr int kUnroll = walk_unroll<kThreads, Source>();
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

__device__ __forceinline__ void clear_bins(uint32_t* hist, int threads) {
  for (int b = threadIdx.x; b < kTopkBins / 4; b += threads) reinterpret_cast<uint4*>(hist)[b] = make_uint4(0, 0, 0, 0);
}
__device__ __forceinline__ void clear_hist(uint32_t* hist, int threads) {
  clear_bins(hist, threads);
  __syncthreads();
}

__device__ __forceinline__ void count_first_digit(uint32_t* hist, uint32_t key) {
  atomicAdd(&hist[key >> topk_digit_shift(0)], 1u);
}

// The radix state: keys whose masked value is above `prefix` are selected, and `remaining` more
// among those equal to it (`on_prefix` of them exist).
struct Selection {
  uint32_t prefix = 0, mask = 0, remaining = 0, on_prefix = 0;
};

// What a pick aims at: a fixed count (the digit passes), or the sample's rank, which depends on how
// many keys the sample counted: over the cluster, the histogram's total; in one block, `sampled`
// (counted by the caller, so that the pick need not sum the whole histogram).
struct WantRemaining {
  uint32_t r;
  __device__ uint32_t operator()(uint32_t) const { return r; }
  __device__ uint32_t here() const { return r; }
};
struct WantSampleRank {
  uint32_t k, len, sampled;
  __device__ uint32_t operator()(uint32_t total) const { return topk_sample_rank(k, total, len); }
  __device__ uint32_t here() const { return topk_sample_rank(k, sampled, len); }
};

// The pick of an unclustered block, by warp 0 (the others wait at the next barrier): the histogram
// as 16 rows of 128 bins (4 a lane: each row one conflict-free 512-byte load), each row summed by
// one warp reduction, walked from the top row down 4 rows at a time (their loads and sums
// independent) until the running count reaches want; only that row is scanned lane by lane.
// CUB's block scan over all 2048 bins cost every warp ~80 instructions a pick, and the 40-register
// kernel rematerialised its lane indices around it: 23 % of its instructions (benchmarks/NOTES.md).
// sel_total: want once reached, else the total (callers compare it with want).
template <class S>
__device__ void pick_top_down(const uint32_t* hist, S& sh, uint32_t remaining) {
  const uint32_t lane = threadIdx.x % kWarp;
  const uint4* bins = reinterpret_cast<const uint4*>(hist);
  constexpr int kRows = kTopkBins / (4 * kWarp), kGroup = 4;
  uint32_t above = 0;  // keys in the rows above the hit row
  int hit = -1;
  for (int q0 = kRows - kGroup; q0 >= 0 && hit < 0; q0 -= kGroup) {
    uint32_t row_sum[kGroup];
#pragma unroll
    for (int j = 0; j < kGroup; ++j) {
      const uint4 w = bins[(q0 + j) * kWarp + lane];
      row_sum[j] = __reduce_add_sync(0xffffffffu, (w.x + w.y) + (w.z + w.w));
    }
#pragma unroll
    for (int j = kGroup - 1; j >= 0; --j) {
      if (hit < 0 && above + row_sum[j] >= remaining) hit = q0 + j;
      if (hit < 0) above += row_sum[j];
    }
  }
  if (hit >= 0) {
    const uint4 w = bins[hit * kWarp + lane];
    const uint32_t mine = (w.x + w.y) + (w.z + w.w);
    uint32_t suffix = mine;  // this lane's bins and every higher lane's
#pragma unroll
    for (int o = 1; o < kWarp; o <<= 1) {
      const uint32_t t = __shfl_down_sync(0xffffffffu, suffix, o);
      if (lane + o < kWarp) suffix += t;
    }
    uint32_t run = above + suffix - mine;  // keys in the bins above this lane's
    const uint32_t count[4] = {w.w, w.z, w.y, w.x};  // bins 4 lane + 3 .. 4 lane of the row
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      if (count[j] != 0 && run < remaining && run + count[j] >= remaining) {
        sh.sel_digit = uint32_t(hit * 4 * kWarp + 4 * lane + 3 - j);
        sh.sel_remaining = remaining - run;
        sh.sel_count = count[j];
      }
      run += count[j];
    }
  }
  if (lane == 0) sh.sel_total = hit >= 0 ? remaining : above;
}

// After every block of the group has counted digit `pass` of its keys equal to sel.prefix under
// sel.mask into its histogram: the digit (from the top) where the group's running count reaches
// want(total counted), which becomes sel.remaining. Returns the total (G::kWarpPick: want once it
// is reached, see pick_top_down); when it is below what was wanted, sel is meaningless (the caller
// falls back). Every block computes the same answer.
template <int kThreads, class G, class Want>
__device__ uint32_t pick_digit(int pass, Selection& sel, SharedFor<kThreads, G>& sh, G& g, Want want) {
  using S = SharedFor<kThreads, G>;
  uint32_t* const hist = sh.hist + g.hist_offset;
  if constexpr (G::kWarpPick) {
    __syncthreads();  // the histogram is complete
    if (threadIdx.x < kWarp) pick_top_down(hist, sh, want.here());
  } else {
    // Thread q holds the bins ranked q * B .. q * B + B - 1 from the top.
    uint32_t count[S::kBinsPerThread], above[S::kBinsPerThread];
#pragma unroll
    for (int j = 0; j < S::kBinsPerThread; ++j) count[j] = 0;
    const auto add_bins = [&](const uint32_t* h) {
      const uint32_t* mine = h + kTopkBins - (threadIdx.x + 1) * S::kBinsPerThread;  // rank j: mine[B - 1 - j]
      if constexpr (S::kBinsPerThread % 4 == 0) {
#pragma unroll
        for (int q = 0; q < S::kBinsPerThread / 4; ++q) {
          const uint4 w = reinterpret_cast<const uint4*>(mine)[q];
          count[S::kBinsPerThread - 1 - 4 * q] += w.x;
          count[S::kBinsPerThread - 2 - 4 * q] += w.y;
          count[S::kBinsPerThread - 3 - 4 * q] += w.z;
          count[S::kBinsPerThread - 4 - 4 * q] += w.w;
        }
      } else {
#pragma unroll
        for (int j = 0; j < S::kBinsPerThread; ++j) count[j] += mine[S::kBinsPerThread - 1 - j];
      }
    };
    __syncthreads();  // this block's histogram is complete
    if constexpr (!G::kClustered) {
      add_bins(hist);
    } else {
      if (g.start_pending) {  // the kernel's first cluster barrier: mbarriers initialised, sums cleared
        cg::this_cluster().barrier_wait();
        g.start_pending = false;
      }
      if constexpr (G::kA2a) {
        static_assert(S::kBinsPerThread == 2, "a2a: a thread's two bins are one received word");
        extern __shared__ uint32_t a2a_recv[];  // the front of dynamic shared memory (topk_kernel)
        const uint32_t buf = g.sum_offset / kTopkBins;
        uint32_t* const recv = a2a_recv + buf * (g.size * kTopkBins / 2);
        if (threadIdx.x == 0) mbar_arm(&sh.hist_full[buf], (g.size - 1) * kTopkBins * 2u);
        for (int q = threadIdx.x; q < kTopkBins / 8; q += kThreads) {
          const uint4 a = reinterpret_cast<const uint4*>(hist)[2 * q];
          const uint4 b = reinterpret_cast<const uint4*>(hist)[2 * q + 1];
          const float4 w = make_float4(__uint_as_float(a.x | a.y << 16), __uint_as_float(a.z | a.w << 16),
                                       __uint_as_float(b.x | b.y << 16), __uint_as_float(b.z | b.w << 16));
          const uint32_t* const here = recv + g.rank * (kTopkBins / 2) + 4 * q;
          for (uint32_t r = 1; r < g.size; ++r) {
            const uint32_t to = g.rank + r < g.size ? g.rank + r : g.rank + r - g.size;
            st_async(cluster_addr(here, to), w, cluster_addr(&sh.hist_full[buf], to));
          }
        }
        mbar_wait(&sh.hist_full[buf], (g.hist_phases >> buf) & 1u);
        g.hist_phases ^= 1u << buf;
        add_bins(hist);
        const uint32_t word = kTopkBins / 2 - 1 - threadIdx.x;  // bins 2046 - 2t (low half) and 2047 - 2t
#pragma unroll
        for (uint32_t r = 0; r < uint32_t(kMaxClusterBlocks); ++r) {
          if (r >= g.size || r == g.rank) continue;
          const uint32_t v = recv[r * (kTopkBins / 2) + word];
          count[0] += v >> 16;
          count[1] += v & 0xffffu;
        }
      } else if (!g.push()) {
        // Clusters of 2: each block sends its histogram into the other's sum buffer (st.async) and
        // waits for the other's on an mbarrier: no cluster barrier.
        const uint32_t buf = g.sum_offset / kTopkBins, other = g.rank ^ 1u;
        uint32_t* const recv = sh.sum + g.sum_offset;
        if (threadIdx.x == 0) mbar_arm(&sh.hist_full[buf], kTopkBins * uint32_t(sizeof(uint32_t)));
        const uint32_t remote_bar = cluster_addr(&sh.hist_full[buf], other);
        for (int b = 2 * threadIdx.x; b < kTopkBins; b += 2 * kThreads)
          st_async_u32x2(cluster_addr(recv + b, other), hist[b], hist[b + 1], remote_bar);
        mbar_wait(&sh.hist_full[buf], (g.hist_phases >> buf) & 1u);
        g.hist_phases ^= 1u << buf;
        add_bins(hist);
        add_bins(recv);
      } else {
        uint32_t* const sum = sh.sum + g.sum_offset;
        for (int b = threadIdx.x; b < kTopkBins; b += kThreads)
          if (const uint32_t c = hist[b]; c != 0)
            for (uint32_t r = 0; r < g.size; ++r) atomicAdd(g.remote(sum + b, r), c);
        g.sync();  // every block's pushes landed
        add_bins(sum);
      }
    }
    uint32_t total;
    typename S::Scan(sh.scan).ExclusiveSum(count, above, total);
    const uint32_t remaining = want(total);
#pragma unroll
    for (int j = 0; j < S::kBinsPerThread; ++j) {
      if (count[j] != 0 && above[j] < remaining && above[j] + count[j] >= remaining) {
        sh.sel_digit = uint32_t(kTopkBins - 1 - (threadIdx.x * S::kBinsPerThread + j));
        sh.sel_remaining = remaining - above[j];
        sh.sel_count = count[j];
      }
    }
    if (threadIdx.x == 0) sh.sel_total = total;
  }
  __syncthreads();
  const int shift = topk_digit_shift(pass);
  sel.prefix |= sh.sel_digit << shift;
  sel.mask |= topk_digit_mask(pass) << shift;
  sel.remaining = sh.sel_remaining;
  sel.on_prefix = sh.sel_count;
  const uint32_t total = sh.sel_total;
  // The next writes of the scan storage and sel_* are the next pick's, after its histogram barrier
  // (every reader of these has read them by then). Across the cluster no barrier (RowGroup).
  if constexpr (G::kClustered) {
    if (g.push()) {  // the next pushes into these sums come after the next barrier
      clear_bins(sh.sum + g.sum_offset, kThreads);
      g.sum_offset ^= kTopkBins;
    } else {  // the other block sends into this buffer again two picks on, after this one's reads
      g.sum_offset ^= kTopkBins;
    }
  }
  return total;
}
template <int kThreads, class G>
__device__ uint32_t pick_digit(int pass, Selection& sel, SharedFor<kThreads, G>& sh, G& g) {
  return pick_digit(pass, sel, sh, g, WantRemaining{sel.remaining});
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
// one from the lower ranks of the group (RowGroup).
template <int kThreads, class W, class G>
__device__ void ordered_bases(const W& walk, const Selection& sel, uint32_t& above_base, uint32_t& on_base,
                              SharedFor<kThreads, G>& sh, G& g) {
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
  // Lane w holds warp w's counts: this warp's bases are the lanes below it, the block's the sums.
  const uint32_t lane = threadIdx.x % kWarp;
  const bool counted = lane < uint32_t(SharedFor<kThreads, G>::kWarps);
  const uint32_t w_above = counted ? sh.warp_count[0][lane] : 0u, w_on = counted ? sh.warp_count[1][lane] : 0u;
  above_base = __reduce_add_sync(0xffffffffu, lane < uint32_t(warp) ? w_above : 0u);
  on_base = __reduce_add_sync(0xffffffffu, lane < uint32_t(warp) ? w_on : 0u);
  const uint32_t block_above = __reduce_add_sync(0xffffffffu, w_above);
  const uint32_t block_on = __reduce_add_sync(0xffffffffu, w_on);
  if constexpr (G::kClustered) {
    // This block's counts into every higher rank's slot, then wait for the lower ranks' (an
    // mbarrier that their bytes complete: no cluster barrier, so no block waits for the higher ranks).
    if (threadIdx.x == 0) {
      for (uint32_t r = g.rank + 1; r < g.size; ++r)
        st_async_u32x2(cluster_addr(&sh.lower_count[g.rank][0], r), block_above, block_on,
                       cluster_addr(&sh.counts_full, r));
      mbar_arm(&sh.counts_full, g.rank * uint32_t(sizeof(sh.lower_count[0])));
    }
    mbar_wait(&sh.counts_full, g.counts_phase);
    g.counts_phase ^= 1u;
    above_base += __reduce_add_sync(0xffffffffu, lane < g.rank ? sh.lower_count[lane][0] : 0u);
    on_base += __reduce_add_sync(0xffffffffu, lane < g.rank ? sh.lower_count[lane][1] : 0u);
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

// Finishes the row from `pass` over this block's candidates (each warp's own segment), or over its
// slice in global memory when a warp's candidates overflowed its segment: the slice holds the same
// keys at or above the prefix, so the answer is the same, and the blocks of a cluster may take
// either (the barriers are the same on both paths).
template <int kThreads, class G>
__device__ void finish_candidates(const GlobalSlice& src, uint32_t n, int pass, const Selection& sel,
                                  uint32_t count, const uint2* cand,
                                  uint32_t seg_cap, int32_t* out, SharedFor<kThreads, G>& sh, G& g) {
  const uint32_t warp = threadIdx.x / kWarp;
  // One barrier that also ORs the warps' overflows (a loop over the warps' counts in shared memory
  // cost a second barrier and a code path each row fetched once, benchmarks/NOTES.md).
  if (__syncthreads_or(count > seg_cap))
    return finish_row(Walk<kThreads, GlobalSlice>::chunked(src, n), pass, sel, out, sh, g);
  const auto candidates = Walk<kThreads, Candidates>::segment(Candidates{cand}, warp * seg_cap, count);
  finish_row(candidates, pass, sel, out, sh, g);
}

// The exact fallback for a slice (a sample that misled): the first digit of every key, walked from
// global memory; then each warp copies the keys of its chunk at or above the first-digit prefix,
// in index order, into its segment of the candidate buffer, and the other digits and the ordered
// write walk only those (the slice again if the bin is needed whole or a segment overflows).
template <int kThreads, class G>
__device__ void select_slice(const GlobalSlice& src, uint32_t n, uint32_t k, uint2* cand, uint32_t cand_cap,
                             int32_t* out, SharedFor<kThreads, G>& sh, G& g) {
  constexpr uint32_t kWarps = kThreads / kWarp;
  const auto slice = Walk<kThreads, GlobalSlice>::chunked(src, n);
  g.next_hist();
  uint32_t* hist = sh.hist + g.hist_offset;
  clear_hist(hist, kThreads);
  slice.for_each([&](uint32_t, uint32_t key, bool valid) {
    if (valid) count_first_digit(hist, key);
  });
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
    if (c && pos < seg_cap) cand[seg_begin + pos] = make_uint2(key, i);
    count += __popc(b);
  });
  finish_candidates(src, n, 1, sel, count, cand, seg_cap, out, sh, g);
}

// A warp's part of the stream: entries [first, first + 32 * steps) of a slice, 32 per step, lane l
// taking entry l of each (one ballot per step then keeps index order), kStream steps per group.
// Contiguous slices load at immediate offsets; no bounds checks on groups wholly inside.
template <bool kContiguous, int kStream>
struct WarpStream {
  const float* slice;
  int64_t col_stride;
  uint32_t n, first, steps;
  __device__ __forceinline__ void load(uint32_t s0, float (&v)[kStream]) const {
    const uint32_t base = first + s0 * kWarp, lane = threadIdx.x % kWarp;
    const float* p = kContiguous ? slice + (base + lane) : slice + int64_t(base + lane) * col_stride;
    const int64_t step = kContiguous ? int64_t(kWarp) : int64_t(kWarp) * col_stride;
    if (s0 + kStream <= steps && base + kStream * kWarp <= n) {
#pragma unroll
      for (int u = 0; u < kStream; ++u) v[u] = __ldg(p + u * step);
    } else {
#pragma unroll
      for (int u = 0; u < kStream; ++u)
        v[u] = s0 + u < steps && base + lane + u * kWarp < n ? __ldg(p + u * step) : __uint_as_float(0x7fffffffu);
    }
  }
};

// L2 prefetch of a warp's group of steps starting at s0 (contiguous slices): lane u < kStream asks
// for the 128 bytes of step s0 + u. No register waits on it, so the bytes in flight are not bounded
// by the loads a lane holds (stream_prefetch says where that pays).
template <int kStream>
__device__ __forceinline__ void prefetch_group(const float* slice, uint32_t n, uint32_t first, uint32_t steps,
                                               uint32_t s0) {
  const uint32_t lane = threadIdx.x % kWarp, j = first + (s0 + lane) * kWarp;
  if (lane < uint32_t(kStream) && s0 + lane < steps && j < n)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(slice + j));
}

// A slice of a row longer than k (entries offset .. offset + n - 1 of the row's `len`): the sample,
// the threshold, the stream into the candidate buffer, then the exact select (file comment).
// kStream: loads a lane keeps in flight (stream_steps); kPrefetch: groups prefetched ahead (stream_prefetch);
// kTwoGroups: two groups of kStream loads in flight (kTwoGroupSteps).
template <int kThreads, int kStream, uint32_t kPrefetch, bool kTwoGroups, class G>
__device__ void select_row(const float* slice, uint32_t n, int64_t col_stride, uint32_t offset, uint32_t len,
                           uint32_t k, uint2* cand, uint32_t cand_cap, int32_t* out,
                           SharedFor<kThreads, G>& sh, G& g) {
  constexpr uint32_t kWarps = kThreads / kWarp;
  const GlobalSlice src{slice, col_stride, offset};
  const uint32_t warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp, lanes_below = (1u << lane) - 1u;
  // Warp w streams entries [w * chunk, (w + 1) * chunk).
  const uint32_t chunk = ((n + kWarps - 1) / kWarps + kWarp - 1) / kWarp * kWarp;
  const uint32_t steps = chunk / kWarp, first = warp * chunk;
  const WarpStream<true, kStream> contiguous{slice, 1, n, first, steps};
  const WarpStream<false, kStream> strided{slice, col_stride, n, first, steps};
  float v[kStream], w[kStream];
  const auto load_into = [&](uint32_t s0, float(&dst)[kStream]) {
    if (col_stride == 1) {
      contiguous.load(s0, dst);
    } else {
      strided.load(s0, dst);
    }
  };
  const auto load = [&](uint32_t s0) { load_into(s0, v); };

  // The sample: every warp's first kStream steps, first digit counted. Its loads (and the two-group
  // stream's first group) are issued before the histogram's clear and barrier, in flight meanwhile:
  // decode 2-4 % faster. Not in the six-block kernel (kPrefetch), where ptxas then spilled more and
  // 8192 x 8192 ran 3 % slower (benchmarks/NOTES.md, session 24).
  const auto issue_sample = [&] {
    load(0);
    if (kPrefetch > 0 && col_stride == 1)  // the next groups come in while the sample is picked
      for (uint32_t d = 1; d <= kPrefetch; ++d) prefetch_group<kStream>(slice, n, first, steps, d * kStream);
    if (kTwoGroups && uint32_t(kStream) < steps) load_into(kStream, w);
  };
  if constexpr (kPrefetch == 0) issue_sample();
  g.next_hist();
  uint32_t* hist = sh.hist + g.hist_offset;
  clear_hist(hist, kThreads);
  if constexpr (kPrefetch > 0) issue_sample();
#pragma unroll
  for (int u = 0; u < kStream; ++u)
    if (u < steps && first + lane + u * kWarp < n) count_first_digit(hist, topk_row_key(v[u]));
  // The keys this block sampled: warp w's [w chunk, w chunk + span) within [0, n) (chunk >= span).
  const uint32_t span = min(uint32_t(kStream), steps) * kWarp;
  const uint32_t full = n >= span ? min(kWarps, (n - span) / chunk + 1) : 0u;
  const uint32_t here = full * span + (full < kWarps && n > full * chunk ? min(n - full * chunk, span) : 0u);
  Selection sel;
  const uint32_t counted = pick_digit(0, sel, sh, g, WantSampleRank{k, len, here});
  if (sel.prefix == 0) return select_slice(src, n, k, cand, cand_cap, out, sh, g);
  const bool exact = (G::kWarpPick ? here : counted) == len;  // then sel is the row's first digit
  const float tau = topk_key_floor(sel.prefix);

  // The stream: values >= tau into this warp's segment in index order, as raw bits (NaN, the
  // padding, is never taken); ~9 % of the values are, so their keys come after, densely. A step is
  // ~11 instructions: the store is predicated (no branch around it), the segment's shared address
  // and the lane mask stay in registers, and no step is bounds-checked (a load past the warp's
  // steps reads NaN, which is never taken). Written with a branch around the store, the compiler
  // recomputed the shared window's base inside it: ~24 instructions a step, a third of the kernel's
  // (Nsight Compute source counters, benchmarks/NOTES.md).
  const uint32_t seg_cap = cand_cap / kWarps;
  uint2* seg = cand + warp * seg_cap;
  const uint32_t seg_addr = uint32_t(__cvta_generic_to_shared(seg));
  const uint32_t entry0 = offset + first + lane;  // the row index of this lane's entry at step 0
  uint32_t count = 0;
  // One compare feeds both the ballot and the store's predicate (written apart, the ballot's
  // compare and the asm's were two). A slot past the segment is not stored (the block then walks
  // its slice instead); clamping such lanes onto the last slot made several lanes write one address
  // (compute-sanitizer racecheck: write-write hazards).
  const auto take = [&](float x, uint32_t entry) {
    uint32_t taken;
    asm volatile(
        "{\n .reg .pred p, q;\n .reg .b32 b, c, a;\n"
        " setp.ge.f32 p, %1, %2;\n"
        " vote.sync.ballot.b32 b, p, 0xffffffff;\n"
        " and.b32 c, b, %3;\n popc.b32 c, c;\n add.u32 c, c, %4;\n"
        " setp.lt.and.u32 q, c, %5, p;\n"
        " mad.lo.u32 a, c, 8, %6;\n"
        " @q st.shared.v2.b32 [a], {%7, %8};\n"
        " popc.b32 %0, b;\n}\n"
        : "=r"(taken)
        : "f"(x), "f"(tau), "r"(lanes_below), "r"(count), "r"(seg_cap), "r"(seg_addr), "r"(__float_as_uint(x)),
          "r"(entry)
        : "memory");
    count += taken;
  };
  const auto take_group = [&](uint32_t s0, const float(&src)[kStream]) {
#pragma unroll
    for (int u = 0; u < kStream; ++u) take(src[u], entry0 + (s0 + u) * kWarp);
  };
  if constexpr (kTwoGroups) {  // v and w alternate: a group's loads are issued before the other's takes
    take_group(0, v);
    for (uint32_t s0 = kStream; s0 < steps; s0 += 2 * kStream) {
      if (s0 + kStream < steps) load_into(s0 + kStream, v);
      take_group(s0, w);
      if (s0 + kStream >= steps) break;
      if (s0 + 2 * kStream < steps) load_into(s0 + 2 * kStream, w);
      take_group(s0 + kStream, v);
    }
  } else {
    take_group(0, v);
    for (uint32_t s0 = kStream; s0 < steps; s0 += kStream) {
      if (kPrefetch > 0 && col_stride == 1) prefetch_group<kStream>(slice, n, first, steps, s0 + kPrefetch * kStream);
      load(s0);
      take_group(s0, v);
    }
  }
  // Each warp turns its stored values into keys, counting their first digit unless the sample
  // was exact (the candidates' first digit is then known).
  if (!exact) {
    g.next_hist();
    hist = sh.hist + g.hist_offset;
    clear_hist(hist, kThreads);  // also orders each warp's stores before its reads below
  } else {
    __syncwarp();
  }
  if (count <= seg_cap) {
    for (uint32_t j = lane; j < count; j += kWarp) {
      const uint32_t key = topk_row_key(__uint_as_float(seg[j].x));
      seg[j].x = key;
      if (!exact) count_first_digit(hist, key);
    }
  } else if (!exact) {  // an overflowing warp counts from its chunk again (its block walks its slice)
    for (uint32_t s0 = 0; s0 < steps; s0 += kStream) {
      load(s0);
#pragma unroll
      for (int u = 0; u < kStream; ++u)
        if (v[u] >= tau) count_first_digit(hist, topk_row_key(v[u]));
    }
  }

  if (exact) return finish_candidates(src, n, 1, sel, count, cand, seg_cap, out, sh, g);
  Selection over;  // the candidates' first digit
  over.remaining = k;
  if (pick_digit(0, over, sh, g) >= k) return finish_candidates(src, n, 1, over, count, cand, seg_cap, out, sh, g);
  select_slice(src, n, k, cand, cand_cap, out, sh, g);  // fewer than k values >= tau
}


// One row per group of blocks (a cluster; grid = clusters x group size). Dynamic shared memory:
// `cand_cap` candidates. kTwoGroups: the stream of long slices (kLongSlice).
template <int kThreads, bool kClustered, int kBlocks = min_blocks(kThreads), bool kTwoGroups = false,
          bool kA2a = false>
__global__ void __launch_bounds__(kThreads, kBlocks) topk_kernel(TopKParams p, uint32_t cand_cap) {
  // One warp picks in the six-block kernel: it took 23 % of the instructions there as a CUB scan,
  // while with four blocks an SM the other warps' wait for it cost more than the scan
  // (benchmarks/NOTES.md).
  using G = RowGroup<kClustered, !kClustered && kBlocks >= 6, kA2a>;
  __shared__ SharedFor<kThreads, G> sh;
  // cand_cap entries {key, row index}; kA2a, after the receive buffers.
  extern __shared__ uint2 dynamic_words[];
  uint2* const cand = dynamic_words + (kA2a ? a2a_recv_words(cg::this_cluster().num_blocks()) / 2 : 0);
  pdl_trigger();
  G g;
  if constexpr (kClustered) {  // shared memory and the cluster only: overlaps the previous kernel
    g.rank = cg::this_cluster().block_rank();
    g.size = cg::this_cluster().num_blocks();
    if (threadIdx.x == 0) {  // visible to the other blocks after the kernel's first cluster barrier
      mbar_init(&sh.counts_full);
      mbar_init(&sh.hist_full[0]);
      mbar_init(&sh.hist_full[1]);
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    if constexpr (!G::kA2a) {  // the kA2a kernels have no sums (and never push)
      if (g.push()) {
        clear_bins(sh.sum, kThreads);
        clear_bins(sh.sum + kTopkBins, kThreads);
      }
    }
    cg::this_cluster().barrier_arrive();  // waited on before the first push or send (pick_digit)
    g.start_pending = true;
  }
  pdl_wait();
  for (int64_t r = blockIdx.x / g.size; r < p.rows; r += gridDim.x / g.size) {
    int64_t start = 0, len = 0;
    topk_row_window(p, r, &start, &len);
    int32_t* out = p.indices + r * p.indices_row_stride;
    if (len <= p.k) {
      if (g.rank == 0)
        for (int64_t i = threadIdx.x; i < p.k; i += kThreads) out[i] = i < len ? int32_t(i) : -1;
    } else {
      const int64_t s0 = len * g.rank / g.size, s1 = len * (g.rank + 1) / g.size;
      const float* slice = p.logits + r * p.logits_row_stride + (start + s0) * p.logits_col_stride;
      select_row<kThreads, kTwoGroups ? kTwoGroupSteps : stream_steps(kThreads, kBlocks),
                 kTwoGroups ? 0u : stream_prefetch(kThreads, kBlocks), kTwoGroups>(
          slice, uint32_t(s1 - s0), p.logits_col_stride, uint32_t(s0), uint32_t(len), uint32_t(p.k), cand, cand_cap,
          out, sh, g);
    }
    // Shared storage is reused by the next row (across the cluster: RowGroup); after the last, the
    // exit's cluster barrier (clustered) or nothing follows.
    if (r + gridDim.x / g.size < p.rows) __syncthreads();
  }
  if constexpr (kClustered) {  // the others' last accesses to this block's shared memory
    if (g.start_pending) {
      cg::this_cluster().barrier_wait();
    } else {
      G::exit_sync();
    }
  }
}

// A block's candidate buffer for a slice of `slice` entries: room for all of them (no segment can
// overflow) up to kMaxCandidates (about k plus a first-digit bin for the index top-k sizes, ~9 % of
// a 32768-wide row); past that a warp whose candidates overflow walks its slice instead.
uint32_t cand_cap(int64_t slice, int threads, int blocks) {
  const int64_t warps = threads / kWarp, chunk = ((slice + warps - 1) / warps + kWarp - 1) / kWarp * kWarp;
  return uint32_t(std::min<int64_t>(warps * chunk, max_candidates(threads, blocks)));
}
size_t cand_bytes(uint32_t cap) { return size_t(cap) * sizeof(uint2); }
// Dynamic shared memory of a launch: the all-to-all receive buffers (kA2a), then the candidates.
size_t dynamic_smem(uint32_t cap, bool a2a, int cluster) {
  return (a2a ? size_t(a2a_recv_words(uint32_t(cluster))) * sizeof(uint32_t) : 0) + cand_bytes(cap);
}

// The opt-in beyond 48 KB of static + dynamic shared memory, set once per device: 0 or the error.
template <int kThreads, bool kClustered, int kBlocks = min_blocks(kThreads), bool kTwoGroups = false,
          bool kA2a = false>
int opt_in_smem(int device) {
  static PerDevice opted_in;
  const auto opt_in = [](int) {
    const cudaError_t e = cudaFuncSetAttribute(topk_kernel<kThreads, kClustered, kBlocks, kTwoGroups, kA2a>,
                                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               int(dynamic_smem(kMaxCandidates, kA2a, kMaxClusterBlocks)));
    return int(e == cudaSuccess);
  };
  if (opted_in.get(device, opt_in)) return 0;
  const cudaError_t e = cudaGetLastError();
  return int(e != cudaSuccess ? e : cudaErrorInvalidValue);
}

// How many clusters of `group` 1024-thread blocks with `smem` bytes of dynamic shared memory each
// the device holds at once (cudaOccupancyMaxActiveClusters, the same for both stream variants; a
// refused query counts as none, e.g. on a MIG slice whose GPCs hold fewer SMs). Asked once per
// (device, group, smem, a2a): the query costs host time; it enqueues nothing, so it is legal under
// stream capture.
template <bool kA2a>
int resident_clusters(int device, int group, size_t smem) {
  static std::mutex mu;
  static std::map<std::tuple<int, int, size_t>, int> cache;
  const std::lock_guard<std::mutex> lock(mu);
  const auto key = std::make_tuple(device, group, smem);
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  int n = 0;
  if (opt_in_smem<1024, true, 1, false, kA2a>(device) == 0) {
    LaunchAttrs attr;
    const cudaLaunchConfig_t cfg = launch_config(unsigned(group), 1024, unsigned(group), smem, nullptr, attr);
    if (cudaOccupancyMaxActiveClusters(&n, topk_kernel<1024, true, 1, false, kA2a>, &cfg) != cudaSuccess) n = 0;
  }
  cudaGetLastError();  // a refused query is an answer (no), not an error of this launch
  return cache[key] = n;
}

template <int kThreads, bool kClustered, int kBlocks = min_blocks(kThreads), bool kTwoGroups = false,
          bool kA2a = false>
int launch(const TopKParams& p, int group, int device, cudaStream_t s) {
  const uint32_t cap = cand_cap((p.width + group - 1) / group, kThreads, kBlocks);
  if (const int e = opt_in_smem<kThreads, kClustered, kBlocks, kTwoGroups, kA2a>(device); e != 0) return e;
  const int64_t max_groups = 65535LL * 32 / group;
  const unsigned grid = unsigned((p.rows < max_groups ? p.rows : max_groups) * group);
  LaunchAttrs attr;
  const unsigned cluster = kClustered ? unsigned(group) : 0u;
  const cudaLaunchConfig_t cfg = launch_config(grid, kThreads, cluster, dynamic_smem(cap, kA2a, group), s, attr);
  return int(cudaLaunchKernelEx(&cfg, topk_kernel<kThreads, kClustered, kBlocks, kTwoGroups, kA2a>, p, cap));
}

}  // namespace

int top_k_per_row(const TopKParams& p, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return int(e);
  // Launch shape only (every shape gives the same results). At most 2048 columns: one warp per
  // row; at most 4096: two warps; at most 8192 and few rows: four warps (no more rows than SMs: more
  // warps a row, up to eight; topk_warp_rows.cu; many such rows went faster through the 256-thread
  // blocks below, six an SM against three groups).
  // Many rows: one 256-thread block per row, four an SM (six up to 8192 columns), so that several
  // rows share an SM and one streams while another selects. Few rows (decode): 1024 threads per block
  // and, for wide rows, a cluster of up to 8 blocks per row so that about one block per SM is busy,
  // no larger than lets every row's cluster be resident at once: 16 rows of 65536 in clusters of 8
  // (128 SMs) ran in two waves, 28-30 us against 17-18 in clusters of 4 (benchmarks/NOTES.md). A
  // cluster the device cannot hold falls back to one block per row.
  if (p.width <= 2 * kWarpRowWidth || (p.width <= kGroupRowWidth && p.rows < 512)) return top_k_warp_rows(p, s);
  if (p.rows >= 512)
    return p.width > 8192 ? launch<256, false, 4>(p, 1, device, s) : launch<256, false>(p, 1, device, s);
  int group = 1;
  const int sms = device_sm_count(device);
  const auto all_resident = [&](int g) {
    const size_t smem = dynamic_smem(cand_cap((p.width + g - 1) / g, 1024, 1), a2a_exchange(p.width, g), g);
    return (a2a_exchange(p.width, g) ? resident_clusters<true>(device, g, smem)
                                     : resident_clusters<false>(device, g, smem)) >= p.rows;
  };
  while (group < kMaxClusterBlocks && p.rows * group * 2 <= sms && p.width / (group * 2) >= 4096 &&
         all_resident(group * 2))
    group *= 2;
  const bool two_groups = p.width / group >= kLongSlice;
  if (group > 1 && a2a_exchange(p.width, group))
    return two_groups ? launch<1024, true, 1, true, true>(p, group, device, s)
                      : launch<1024, true, 1, false, true>(p, group, device, s);
  if (group > 1)
    return two_groups ? launch<1024, true, 1, true>(p, group, device, s) : launch<1024, true>(p, group, device, s);
  return launch<1024, false>(p, 1, device, s);
}

}  // namespace dsv4::cuda
