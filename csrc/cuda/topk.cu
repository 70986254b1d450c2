// top_k_per_row on CUDA, first form: one block per row, the path chosen on the device from the
// row's live length (never from the padded width). Rows with len <= k get 0..len-1 then -1. Longer
// rows: a 4-pass 8-bit radix select on the order-preserving 32-bit key (shared-memory histogram,
// a CUB scan picks each digit) finds the k-th largest key `thr` and how many keys equal to it are
// needed; one ordered pass then writes every key > thr and the lowest-index keys == thr at position
// (#greater before i) + min(#equal before i, needed): ascending index order, which also satisfies
// deterministic=True, and exact, since every pass counts every candidate. (Tried and measured
// slower on H100: per-warp histograms with match_any aggregation; a register-resident bitwise
// search with block reductions.)
#include <cub/block/block_scan.cuh>

#include "../common/topk_math.h"
#include "cuda_common.cuh"
#include "cuda_ops.h"

namespace dsv4::cuda {

namespace {

constexpr int kBins = 256;

template <int kThreads>
struct Shared {
  using Scan = cub::BlockScan<uint32_t, kThreads>;
  typename Scan::TempStorage scan;
  uint32_t hist[kBins];
  uint32_t sel_digit, sel_remaining;
};

__device__ __forceinline__ uint32_t load_key(const float* row, int64_t i, int64_t col_stride) {
  return topk_key(__ldg(row + i * col_stride));
}

template <int kThreads>
__device__ void select_radix(const TopKParams& p, const float* row, int64_t len, int32_t* out,
                             Shared<kThreads>& sh) {
  using Scan = typename Shared<kThreads>::Scan;
  uint32_t prefix = 0, mask = 0, remaining = uint32_t(p.k);
  for (int shift = 24; shift >= 0; shift -= 8) {
    for (int b = threadIdx.x; b < kBins; b += kThreads) sh.hist[b] = 0;
    __syncthreads();
    for (int64_t i = threadIdx.x; i < len; i += kThreads) {
      const uint32_t key = load_key(row, i, p.logits_col_stride);
      if ((key & mask) == prefix) atomicAdd(&sh.hist[(key >> shift) & (kBins - 1)], 1u);
    }
    __syncthreads();
    // Digits in descending order: thread q holds digit 255 - q; the selected digit is where the
    // running count from the top first reaches `remaining`.
    const uint32_t count = threadIdx.x < kBins ? sh.hist[kBins - 1 - threadIdx.x] : 0u;
    uint32_t above;
    Scan(sh.scan).ExclusiveSum(count, above);
    if (threadIdx.x < kBins && above < remaining && above + count >= remaining) {
      sh.sel_digit = uint32_t(kBins - 1 - threadIdx.x);
      sh.sel_remaining = remaining - above;
    }
    __syncthreads();
    prefix |= sh.sel_digit << shift;
    mask |= uint32_t(kBins - 1) << shift;
    remaining = sh.sel_remaining;
    __syncthreads();  // hist, scan storage and sel_* are rewritten by the next pass
  }

  // Ordered write in tiles of kThreads consecutive indices (one index per thread per tile).
  const uint32_t thr = prefix, need_eq = remaining;
  uint32_t greater_before = 0, equal_before = 0;
  for (int64_t tile = 0; tile < len; tile += kThreads) {
    const int64_t i = tile + threadIdx.x;
    const uint32_t key = i < len ? load_key(row, i, p.logits_col_stride) : 0u;
    const bool gt = i < len && key > thr, eq = i < len && key == thr;
    uint32_t before, total;
    Scan(sh.scan).ExclusiveSum((gt ? 1u << 16 : 0u) | (eq ? 1u : 0u), before, total);
    const uint32_t g = greater_before + (before >> 16), e = equal_before + (before & 0xffffu);
    if (gt || (eq && e < need_eq)) out[g + (e < need_eq ? e : need_eq)] = int32_t(i);
    greater_before += total >> 16;
    equal_before += total & 0xffffu;
    __syncthreads();  // scan storage reuse
  }
}

template <int kThreads>
__global__ void __launch_bounds__(kThreads) topk_kernel(TopKParams p) {
  __shared__ Shared<kThreads> sh;
  for (int64_t r = blockIdx.x; r < p.rows; r += gridDim.x) {
    int64_t start = 0, len = 0;
    topk_row_window(p, r, &start, &len);
    int32_t* out = p.indices + r * p.indices_row_stride;
    const float* row = p.logits + r * p.logits_row_stride + start * p.logits_col_stride;
    if (len <= p.k) {
      for (int64_t i = threadIdx.x; i < p.k; i += kThreads) out[i] = i < len ? int32_t(i) : -1;
    } else {
      select_radix(p, row, len, out, sh);
    }
    __syncthreads();  // shared storage is reused by the next row
  }
}

}  // namespace

int top_k_per_row(const TopKParams& p, void* stream) {
  const unsigned grid = unsigned(p.rows < 65535LL * 32 ? p.rows : 65535LL * 32);
  const auto s = static_cast<cudaStream_t>(stream);
  // Launch shape only (the algorithm is the same, and so are the results): a few rows (decode)
  // get 1024 threads each, which takes a 65536-wide row from 136 to 84 us on H100; many rows
  // (prefill) 512, so several rows share an SM.
  if (p.rows < 512) {
    topk_kernel<1024><<<grid, 1024, 0, s>>>(p);
  } else {
    topk_kernel<512><<<grid, 512, 0, s>>>(p);
  }
  return int(cudaGetLastError());
}

}  // namespace dsv4::cuda
