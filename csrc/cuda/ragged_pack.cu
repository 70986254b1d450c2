// ragged_pack on CUDA, one launch, no workspace (../shared/spec/topk.md §6.3): each block owns a
// contiguous range of rows, finds its base offset by summing the (clamped) lengths of all earlier
// rows, block-scans its own lengths with CUB, writes their indptr entries and copies the rows,
// one warp per row. Nothing past indptr[R] is written.
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "../common/topk_math.h"
#include "cuda_common.cuh"
#include "cuda_ops.h"

namespace dsv4::cuda {

namespace {

constexpr int kPackThreads = 256;
constexpr int kRowsPerBlock = 32;  // 4 rows per warp: enough blocks to fill the GPU at R = 8192
constexpr int kCopyUnroll = 8;
static_assert(kRowsPerBlock % 4 == 0, "block bases are summed four lengths at a time");

__global__ void __launch_bounds__(kPackThreads) ragged_pack_kernel(RaggedPackParams p) {
  using Reduce = cub::BlockReduce<int64_t, kPackThreads>;
  using Scan = cub::BlockScan<int64_t, kPackThreads>;
  __shared__ union {
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
  } tmp;
  __shared__ int64_t row_offset[kRowsPerBlock];
  __shared__ int64_t base;

  // This block's base: the clamped lengths of all earlier rows (r0 is a multiple of 4), four at a
  // time when the lengths allow 16-byte loads, so the last blocks wait for few load round trips.
  const int64_t r0 = int64_t(blockIdx.x) * kRowsPerBlock;
  int64_t before = 0;
  if (aligned16(p.lengths)) {
    const int4* quads = reinterpret_cast<const int4*>(p.lengths);
#pragma unroll 4
    for (int64_t q = threadIdx.x; q < r0 / 4; q += kPackThreads) {
      const int4 v = __ldg(quads + q);
      before += clamp64(v.x, 0, p.width) + clamp64(v.y, 0, p.width) + clamp64(v.z, 0, p.width) +
                clamp64(v.w, 0, p.width);
    }
  } else {
#pragma unroll 8
    for (int64_t q = threadIdx.x; q < r0; q += kPackThreads) before += ragged_length(p, q);
  }
  before = Reduce(tmp.reduce).Sum(before);
  if (threadIdx.x == 0) base = before;
  __syncthreads();

  const int64_t r = r0 + threadIdx.x;
  const bool mine = threadIdx.x < kRowsPerBlock && r < p.rows;
  const int64_t len = mine ? ragged_length(p, r) : 0;
  int64_t offset;
  Scan(tmp.scan).ExclusiveSum(len, offset);
  offset += base;
  if (threadIdx.x < kRowsPerBlock) row_offset[threadIdx.x] = offset;
  if (mine) p.indptr_out[r + 1] = int32_t(offset + len);
  if (r == 0) p.indptr_out[0] = 0;
  __syncthreads();

  const int lane = threadIdx.x % kWarp;
  for (int local = threadIdx.x / kWarp; local < kRowsPerBlock && r0 + local < p.rows;
       local += kPackThreads / kWarp) {
    const int64_t row = r0 + local;
    const int64_t n = ragged_length(p, row);
    const int32_t* src = p.dense + row * p.dense_row_stride;
    int32_t* dst = p.indices_out + row_offset[local];
    // kCopyUnroll loads in flight per lane before the stores: one at a time, the copy is bound
    // by load latency (36 % of copy bandwidth at R = 8192, W = 512, against 70 % like this).
    for (int64_t j0 = lane; j0 < n; j0 += int64_t(kWarp) * kCopyUnroll) {
      int32_t v[kCopyUnroll];
#pragma unroll
      for (int u = 0; u < kCopyUnroll; ++u) v[u] = j0 + u * kWarp < n ? __ldg(src + j0 + u * kWarp) : 0;
#pragma unroll
      for (int u = 0; u < kCopyUnroll; ++u)
        if (j0 + u * kWarp < n) dst[j0 + u * kWarp] = ragged_map(v[u], p.num_kv, p.fill);
    }
  }
}

}  // namespace

int ragged_pack(const RaggedPackParams& p, void* stream) {
  const unsigned grid = unsigned((p.rows + kRowsPerBlock - 1) / kRowsPerBlock);
  ragged_pack_kernel<<<grid > 0 ? grid : 1, kPackThreads, 0, static_cast<cudaStream_t>(stream)>>>(p);
  return int(cudaGetLastError());
}

}  // namespace dsv4::cuda
