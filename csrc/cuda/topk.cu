// top_k_per_row on CUDA, first form: one block per row. A 4-pass 8-bit radix select on the
// order-preserving 32-bit key finds the k-th largest key `thr` and how many elements equal to it
// are needed; one ordered pass then writes every key > thr and the lowest-index keys == thr at
// position (#greater before i) + min(#equal before i, needed), i.e. in ascending index order
// (which also satisfies deterministic=True). Exact: every pass sees every candidate.
#include <cub/block/block_scan.cuh>

#include "../common/topk_math.h"
#include "cuda_common.cuh"
#include "cuda_ops.h"

namespace dsv4::cuda {

namespace {

constexpr int kTopKThreads = 512;
constexpr int kBins = 256;

__device__ __forceinline__ uint32_t load_key(const float* row, int64_t i, int64_t col_stride) {
  return topk_key(__ldg(row + i * col_stride));
}

__global__ void __launch_bounds__(kTopKThreads) topk_radix_kernel(TopKParams p) {
  using Scan = cub::BlockScan<uint32_t, kTopKThreads>;
  __shared__ typename Scan::TempStorage scan_tmp;
  __shared__ uint32_t hist[kBins];
  __shared__ uint32_t sel_digit, sel_remaining;

  for (int64_t r = blockIdx.x; r < p.rows; r += gridDim.x) {
    int64_t start = 0, len = 0;
    topk_row_window(p, r, &start, &len);
    int32_t* out = p.indices + r * p.indices_row_stride;
    if (len <= p.k) {
      for (int64_t i = threadIdx.x; i < p.k; i += kTopKThreads) out[i] = i < len ? int32_t(i) : -1;
      continue;
    }
    const float* row = p.logits + r * p.logits_row_stride + start * p.logits_col_stride;

    uint32_t prefix = 0, mask = 0, remaining = uint32_t(p.k);
    for (int shift = 24; shift >= 0; shift -= 8) {
      for (int b = threadIdx.x; b < kBins; b += kTopKThreads) hist[b] = 0;
      __syncthreads();
      for (int64_t i = threadIdx.x; i < len; i += kTopKThreads) {
        const uint32_t key = load_key(row, i, p.logits_col_stride);
        if ((key & mask) == prefix) atomicAdd(&hist[(key >> shift) & (kBins - 1)], 1u);
      }
      __syncthreads();
      if (threadIdx.x == 0) {
        uint32_t above = 0;
        for (int b = kBins - 1; b >= 0; --b) {
          if (above + hist[b] >= remaining) {
            sel_digit = uint32_t(b);
            sel_remaining = remaining - above;
            break;
          }
          above += hist[b];
        }
      }
      __syncthreads();
      prefix |= sel_digit << shift;
      mask |= uint32_t(kBins - 1) << shift;
      remaining = sel_remaining;
      __syncthreads();  // hist and sel_* are rewritten by the next pass
    }

    // Ordered write: counts of (greater, equal) packed in one 32-bit scan (each < 2^16 per tile).
    const uint32_t thr = prefix, need_eq = remaining;
    uint32_t greater_before = 0, equal_before = 0;
    for (int64_t base = 0; base < len; base += kTopKThreads) {
      const int64_t i = base + threadIdx.x;
      const uint32_t key = i < len ? load_key(row, i, p.logits_col_stride) : 0u;
      const bool gt = i < len && key > thr, eq = i < len && key == thr;
      uint32_t packed = (gt ? 1u << 16 : 0u) | (eq ? 1u : 0u), excl, total;
      Scan(scan_tmp).ExclusiveSum(packed, excl, total);
      const uint32_t g = greater_before + (excl >> 16), e = equal_before + (excl & 0xffffu);
      if (gt || (eq && e < need_eq)) out[g + (e < need_eq ? e : need_eq)] = int32_t(i);
      greater_before += total >> 16;
      equal_before += total & 0xffffu;
      __syncthreads();  // scan_tmp reuse
    }
  }
}

}  // namespace

int top_k_per_row(const TopKParams& p, void* stream) {
  const unsigned grid = unsigned(p.rows < 65535LL * 32 ? p.rows : 65535LL * 32);
  topk_radix_kernel<<<grid, kTopKThreads, 0, static_cast<cudaStream_t>(stream)>>>(p);
  return int(cudaGetLastError());
}

}  // namespace dsv4::cuda
