// top_k_per_row on CDNA: one 1024-thread workgroup (16 wavefronts) per row, the path chosen on
// the device from the row's live length. Rows with len <= k get 0..len-1 then -1. Longer rows: a
// radix select on the order-preserving key with 11-, 11- and 10-bit digits (LDS histogram with
// ds_add; every wave then picks the digit from the same histogram with one DPP scan and a ballot,
// topk_pick_bin, instead of one wave picking and broadcasting through LDS), stopping early once
// the whole bin of the k-th key is needed. One ordered pass then writes every key above the
// threshold prefix and the lowest-index keys on it at topk_slot(...): ascending index order
// (what deterministic=True asks for), and exact, since every pass counts every candidate.
//
// The row is walked in 16-byte quads of an aligned frame (global_load_dwordx4 when the column
// stride is 1; partial quads at the ends and strided rows load per element). Rows whose frame fits
// the arch's LDS budget (13312 keys on gfx942's 64 KiB, 37888 on gfx950's 160 KiB) are read from
// HBM once: pass 0 stores the keys, later passes and the write read them back with ds_read_b128.
// Longer rows are re-read per pass (L2 / MALL), 2 quads in flight per thread.
#include "../common/topk_math.h"
#include "cdna_common.h"
#include "hip_ops.h"

namespace dsv4::hip {

namespace {

constexpr int kThreads = 1024;
constexpr int kWaves = kThreads / kWave;
constexpr int kBinsPerLane = kTopkBins / kWave;
// Quads in flight per thread while streaming: 2 x 16 B x 1024 threads = 32 KiB per CU, about the
// bytes in flight an MI300X CU needs for its HBM share; 4 spills on gfx942 (128 VGPRs).
constexpr int kBatch = 2;

template <class Arch>
struct TopkShared {
  static constexpr int kFixedBytes = kTopkBins * 4 + kWaves * 4;
  static constexpr int kCacheKeys = (Arch::kLdsBytes - kFixedBytes) / 4 / 1024 * 1024;
  uint32_t hist[kTopkBins];
  uint32_t scan[kWaves];
  alignas(16) uint32_t cache[kCacheKeys];

  __device__ void load_cached(int q, uint32_t (&key)[4]) const {
    const Vec16<uint32_t> v = *reinterpret_cast<const Vec16<uint32_t>*>(cache + 4 * q);
#pragma unroll
    for (int j = 0; j < 4; ++j) key[j] = v.v[j];
  }
};

// Quad q of a row covers frame positions 4q..4q+3; frame position u is row element u - off.
// Positions are 32-bit (a row's indices are int32); only the strided address is 64-bit.
struct RowFrame {
  const float* row;
  int64_t col_stride;
  int off;  // elements before the row start in its first 16-byte frame (0 unless vectorised)
  int end;  // off + len
  bool vec;

  __device__ bool valid(int u) const { return u >= off && u < end; }

  __device__ void load(int q, uint32_t (&key)[4]) const {
    const int u0 = 4 * q;
    if (vec && u0 >= off && u0 + 4 <= end) {
      const Vec16<float> v = *reinterpret_cast<const Vec16<float>*>(row - off + u0);
#pragma unroll
      for (int j = 0; j < 4; ++j) key[j] = topk_key(v.v[j]);
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j)
        key[j] = valid(u0 + j) ? topk_key(row[int64_t(u0 + j - off) * col_stride]) : 0u;
    }
  }
};

// Histogram of digit `shift` over the keys matching `prefix` under `mask`. kFromCache: the keys
// are in LDS; otherwise they are loaded, and stored to the cache when `fill_cache`.
template <bool kFromCache, class Sh>
__device__ void count_digits(const RowFrame& f, Sh& sh, int quads, uint32_t prefix,
                             uint32_t mask, int shift, bool fill_cache) {
  const uint32_t digit_mask = uint32_t(kTopkBins - 1);
  for (int q0 = thread_id(); q0 < quads; q0 += kThreads * kBatch) {
    uint32_t key[kBatch][4];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const int q = q0 + b * kThreads;
      if (q >= quads) continue;
      if constexpr (kFromCache) {
        sh.load_cached(q, key[b]);
      } else {
        f.load(q, key[b]);
        if (fill_cache) {
          *reinterpret_cast<Vec16<uint32_t>*>(sh.cache + 4 * q) = {
              {key[b][0], key[b][1], key[b][2], key[b][3]}};
        }
      }
    }
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const int q = q0 + b * kThreads;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        if (q < quads && f.valid(4 * q + j) && (key[b][j] & mask) == prefix)
          __hip_atomic_fetch_add(&sh.hist[(key[b][j] >> shift) & digit_mask], 1u, __ATOMIC_RELAXED,
                                 __HIP_MEMORY_SCOPE_WORKGROUP);
      }
    }
  }
}

// Every wave sums the whole histogram in rank order (lane l: ranks 32l..32l+31, the bins
// 2047-32l down to 2016-32l) and picks the same bin.
template <class Sh>
__device__ TopkPick pick_bin(const Sh& sh, uint32_t remaining) {
  const int lane = thread_id() % kWave;
  const uint32_t* low = sh.hist + kTopkBins - kBinsPerLane * (lane + 1);
  uint32_t total = 0;
#pragma unroll
  for (int j = 0; j < kBinsPerLane; j += 4) {
    const Vec16<uint32_t> v = *reinterpret_cast<const Vec16<uint32_t>*>(low + j);
    total += v.v[0] + v.v[1] + v.v[2] + v.v[3];
  }
  return topk_pick_bin<Wave>(total, kBinsPerLane, remaining,
                             [&](uint32_t rank) { return sh.hist[kTopkBins - 1 - rank]; });
}

// Ordered write: tiles of kThreads quads, thread t holding quad tile + t, so thread order is index
// order and one block scan of packed (above << 16 | on) counts (<= 4096 each) places a tile.
template <bool kFromCache, class Sh>
__device__ void write_selected(const RowFrame& f, Sh& sh, int quads, uint32_t prefix,
                               uint32_t mask, uint32_t need_on, int k, int32_t* out) {
  uint32_t above = 0, on = 0;
  for (int tile = 0; tile < quads && topk_slot(above, on, need_on) < uint32_t(k);
       tile += kThreads) {
    const int q = tile + thread_id();
    uint32_t key[4] = {0u, 0u, 0u, 0u};
    if (q < quads) {
      if constexpr (kFromCache) {
        sh.load_cached(q, key);
      } else {
        f.load(q, key);
      }
    }
    bool gt[4], eq[4];
    uint32_t mine = 0;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const bool live = q < quads && f.valid(4 * q + j);
      gt[j] = live && (key[j] & mask) > prefix;
      eq[j] = live && (key[j] & mask) == prefix;
      mine += (gt[j] ? 1u << 16 : 0u) | (eq[j] ? 1u : 0u);
    }
    uint32_t tile_total;
    const uint32_t before = block_exclusive_sum<kThreads>(mine, sh.scan, &tile_total);
    uint32_t a = above + (before >> 16), o = on + (before & 0xffffu);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      if (gt[j] || (eq[j] && o < need_on)) out[topk_slot(a, o, need_on)] = 4 * q + j - f.off;
      a += gt[j];
      o += eq[j];
    }
    above += tile_total >> 16;
    on += tile_total & 0xffffu;
  }
}

template <bool kFromCache, class Sh>
__device__ void select_row(const RowFrame& f, Sh& sh, int quads, int k, int32_t* out) {
  uint32_t prefix = 0, mask = 0, remaining = uint32_t(k);
  for (int pass = 0; pass < kTopkRadixPasses; ++pass) {
    if (pass > 0) block_barrier();  // every wave has picked from the previous histogram
    for (int b = thread_id(); b < kTopkBins; b += kThreads) sh.hist[b] = 0;
    block_barrier();
    const int shift = topk_digit_shift(pass);
    // Pass 0 of a cached row loads from global and fills the cache.
    if (kFromCache && pass > 0) {
      count_digits<true>(f, sh, quads, prefix, mask, shift, false);
    } else {
      count_digits<false>(f, sh, quads, prefix, mask, shift, kFromCache);
    }
    block_barrier();
    const TopkPick pick = pick_bin(sh, remaining);
    prefix |= (uint32_t(kTopkBins - 1) - pick.rank) << shift;
    mask |= topk_digit_mask(pass) << shift;
    remaining = pick.remaining;
    if (pick.remaining == pick.count) break;
  }
  write_selected<kFromCache>(f, sh, quads, prefix, mask, remaining, k, out);
}

template <class Arch>
__global__ void __launch_bounds__(kThreads) topk_kernel(TopKParams p) {
  if constexpr (Arch::kThisTarget) {
    __shared__ TopkShared<Arch> sh;
    for (int64_t r = block_id(); r < p.rows; r += block_count<kThreads>()) {
      int64_t start = 0, len = 0;
      topk_row_window(p, r, &start, &len);
      int32_t* out = p.indices + r * p.indices_row_stride;
      if (len <= p.k) {
        for (int i = thread_id(); i < p.k; i += kThreads) out[i] = i < len ? i : -1;
        continue;
      }
      RowFrame f;
      f.row = p.logits + r * p.logits_row_stride + start * p.logits_col_stride;
      f.col_stride = p.logits_col_stride;
      f.vec = f.col_stride == 1;
      f.off = f.vec ? int((reinterpret_cast<uintptr_t>(f.row) >> 2) & 3u) : 0;
      f.end = f.off + int(len);
      const int quads = (f.end + 3) / 4;
      if (f.end <= TopkShared<Arch>::kCacheKeys) {
        select_row<true>(f, sh, quads, p.k, out);
      } else {
        select_row<false>(f, sh, quads, p.k, out);
      }
      block_barrier();  // LDS is reused by the next row
    }
  }
}

template <class Arch>
int launch_topk(const TopKParams& p, void* stream) {
  if (p.rows == 0) return 0;
  // One workgroup per row: its LDS use leaves one resident per CU, and queued workgroups balance
  // rows of uneven length; the cap bounds the grid, the row loop covers the rest.
  const unsigned grid = grid_for<Arch>(p.rows, 1, 64);
  hipLaunchKernelGGL(topk_kernel<Arch>, grid, kThreads, 0, static_cast<hipStream_t>(stream), p);
  return int(hipGetLastError());
}

}  // namespace

namespace gfx942 {
int top_k_per_row(const TopKParams& p, void* stream) { return launch_topk<Gfx942>(p, stream); }
}  // namespace gfx942

namespace gfx950 {
int top_k_per_row(const TopKParams& p, void* stream) { return launch_topk<Gfx950>(p, stream); }
}  // namespace gfx950

}  // namespace dsv4::hip
