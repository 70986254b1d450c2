// ragged_pack on CUDA: one launch, no workspace, no host sync, CUDA-graph safe
// (../shared/spec/topk.md §6.3; the arithmetic is in benchmarks/NOTES.md, section ragged_pack).
//
// Persistent schedule: as many blocks as the device holds at once (an occupancy query, cached per
// device), block b owning the contiguous rows of ragged_block_begin (common/topk_math.h). A block
//  1. sums the clamped lengths of all rows before its range once, with all its threads (16-byte
//     loads where aligned, kPrefixBatch in flight per thread): blocks x R / 2 x 4 bytes over the
//     launch, linear in R, all of it L2 hits;
//  2. walks its rows kThreads at a time (a tile): one block scan of (length, segments) pairs, which
//     also reduces the step-1 sums, gives each row its output offset (its indptr entry is written
//     there, coalesced) and its first copy segment;
//  3. copies the tile's segments, kSegment = 32 x kUnroll entries of one row each, round robin over
//     the warps, so a long row is spread over the warps and a short one takes one segment. A warp
//     issues the loads of kDepth segments before their stores: 16-byte loads and stores when a
//     row's source and destination share their alignment (an int32 head and tail around them),
//     else kUnroll int32 loads a lane.
// Nothing is written past indptr[R] of indices_out or past indptr_out[R]. indptr is int32 and the
// host checks R * W < 2^31, so int32 sums of clamped lengths are exact.
#include "../common/topk_math.h"
#include "cuda_common.cuh"
#include "cuda_ops.h"

namespace dsv4::cuda {

namespace {

constexpr int kPrefixBatch = 8;  // 16-byte loads in flight per thread while summing earlier lengths

// This thread's share of the clamped lengths[lo, hi) (read-only path, 16-byte loads where aligned).
template <int kThreads>
__device__ __forceinline__ int32_t sum_lengths(const int32_t* lengths, int64_t lo, int64_t hi, int32_t width) {
  return ragged_sum_lengths<kThreads, kPrefixBatch>(lengths, lo, hi, width, int(threadIdx.x),
                                                    [](const int32_t* q, int32_t(&out)[4]) {
                                                      const int4 v = __ldg(reinterpret_cast<const int4*>(q));
                                                      out[0] = v.x, out[1] = v.y, out[2] = v.z, out[3] = v.w;
                                                    });
}

struct TileScan {
  uint64_t before;  // the pairs of the threads before this one
  uint64_t total;   // the pairs of the block
  int32_t sum;      // the block's sum of `part`
};

__device__ __forceinline__ int32_t warp_total(int32_t v) {
#pragma unroll
  for (int o = kWarp / 2; o > 0; o /= 2) v += __shfl_xor_sync(~0u, v, o);
  return v;
}

// Exclusive sum of one (length, segments) pair per thread over the block in thread order, and the
// block sum of `part`, with one barrier: warp shuffles, then every warp reads the 32 warp sums.
// The caller puts a barrier between two calls (they share warp_pair and warp_part).
template <int kThreads>
__device__ __forceinline__ TileScan tile_scan(uint64_t pair, int32_t part, uint64_t* warp_pair, int32_t* warp_part) {
  constexpr int kWarps = kThreads / kWarp;
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const uint64_t inc = warp_inclusive_sum(pair, lane);
  part = warp_total(part);
  if (lane == kWarp - 1) warp_pair[warp] = inc;
  if (lane == 0) warp_part[warp] = part;
  __syncthreads();
  const uint64_t w = lane < kWarps ? warp_pair[lane] : 0;
  const uint64_t w_inc = warp_inclusive_sum(w, lane);
  const int32_t sum = warp_total(lane < kWarps ? warp_part[lane] : 0);
  return {__shfl_sync(~0u, w_inc - w, warp) + inc - pair, __shfl_sync(~0u, w_inc, kWarp - 1), sum};
}

// The last tile row r < rows (1 <= rows <= 32 x 32) whose first segment is <= s, for the whole
// warp: rows sharing a first segment are empty but the last, which holds it. Two ballots.
__device__ __forceinline__ int find_row(const int32_t* first_segment, int rows, int s, int lane) {
  const int coarse = lane * kWarp;
  const unsigned upper = __ballot_sync(~0u, coarse < rows && first_segment[coarse] <= s);
  const int r0 = (31 - __clz(upper)) * kWarp;  // bit 0 is set: first_segment[0] == 0 <= s
  const unsigned lower = __ballot_sync(~0u, r0 + lane < rows && first_segment[r0 + lane] <= s);
  return r0 + 31 - __clz(lower);
}

// One segment of a row as a warp copies it: entries [0, n) of src to dst (n <= 32 x kUnroll).
template <int kUnroll>
struct Segment {
  const int32_t* src = nullptr;
  int32_t* dst = nullptr;
  int n = 0;
  int32_t v[kUnroll];  // body: int32 entries lane + 32u, or kUnroll / 4 vectors lane + 32k
  int32_t edge = 0;    // vector path: lanes 0-2 an int32 of the head, lanes 3-5 one of the tail

  __device__ __forceinline__ bool vector() const { return ragged_same_alignment(src, dst); }

  __device__ __forceinline__ void load(int lane) {
    if (vector()) {
      const RaggedSegmentShape shape = ragged_segment_shape(src, n);
      const int4* s4 = reinterpret_cast<const int4*>(src + shape.head);
#pragma unroll
      for (int k = 0; k < kUnroll / 4; ++k) {
        const int4 x = lane + k * kWarp < shape.quads ? __ldg(s4 + lane + k * kWarp) : make_int4(0, 0, 0, 0);
        v[4 * k] = x.x, v[4 * k + 1] = x.y, v[4 * k + 2] = x.z, v[4 * k + 3] = x.w;
      }
      const int e = ragged_segment_edge(shape, n, lane);
      edge = e >= 0 ? __ldg(src + e) : 0;
    } else {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) v[u] = lane + u * kWarp < n ? __ldg(src + lane + u * kWarp) : 0;
    }
  }

  __device__ __forceinline__ void store(int lane, int64_t num_kv, int32_t fill) const {
    if (vector()) {
      const RaggedSegmentShape shape = ragged_segment_shape(src, n);
      int4* d4 = reinterpret_cast<int4*>(dst + shape.head);
#pragma unroll
      for (int k = 0; k < kUnroll / 4; ++k)
        if (lane + k * kWarp < shape.quads)
          d4[lane + k * kWarp] = make_int4(ragged_map(v[4 * k], num_kv, fill), ragged_map(v[4 * k + 1], num_kv, fill),
                                           ragged_map(v[4 * k + 2], num_kv, fill),
                                           ragged_map(v[4 * k + 3], num_kv, fill));
      const int e = ragged_segment_edge(shape, n, lane);
      if (e >= 0) dst[e] = ragged_map(edge, num_kv, fill);
    } else {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        if (lane + u * kWarp < n) dst[lane + u * kWarp] = ragged_map(v[u], num_kv, fill);
    }
  }
};

template <int kThreads, int kUnroll, int kDepth>
__global__ void __launch_bounds__(kThreads, 1024 / kThreads)
    ragged_pack_kernel(RaggedPackParams p, RaggedSchedule sched) {
  constexpr int kWarps = kThreads / kWarp;
  constexpr int kSegment = kWarp * kUnroll;
  static_assert(kThreads <= kWarp * kWarp, "find_row searches 32 x 32 tile rows");
  static_assert(kUnroll % 4 == 0, "a segment's 16-byte body is kUnroll / 4 vectors a lane");
  __shared__ int32_t row_offset[kThreads + 1];  // tile row -> first entry, from the tile's; [kThreads]: tile total
  __shared__ int32_t first_segment[kThreads];   // tile row -> first segment; rows past the tile: the count
  __shared__ uint64_t warp_pair[kWarps];
  __shared__ int32_t warp_part[kWarps];

  pdl_begin();
  const int32_t width = int32_t(p.width);
  const int64_t begin = ragged_block_begin(sched, blockIdx.x), end = ragged_block_begin(sched, blockIdx.x + 1);
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  if (blockIdx.x == 0 && threadIdx.x == 0) p.indptr_out[0] = 0;

  // 1. The first tile's lengths are loaded beside the earlier rows': one round trip.
  int32_t len = begin + threadIdx.x < end ? ragged_clamp(__ldg(p.lengths + begin + threadIdx.x), width) : 0;
  int32_t part = sum_lengths<kThreads>(p.lengths, 0, begin, width);
  int32_t base = 0;

  // 2. and 3., a tile at a time.
  for (int64_t t0 = begin; t0 < end; t0 += kThreads) {
    const int rows = int(min(int64_t(kThreads), end - t0));
    const TileScan scan = tile_scan<kThreads>((uint64_t(ragged_segments(len, kSegment)) << 32) | uint32_t(len), part,
                                              warp_pair, warp_part);
    base += scan.sum;  // the earlier rows' lengths (first tile), then 0
    part = 0;
    const int32_t offset = int32_t(uint32_t(scan.before));
    row_offset[threadIdx.x] = offset;
    first_segment[threadIdx.x] = int32_t(scan.before >> 32);
    if (threadIdx.x == 0) row_offset[kThreads] = int32_t(uint32_t(scan.total));
    if (threadIdx.x < rows) p.indptr_out[t0 + threadIdx.x + 1] = base + offset + len;
    __syncthreads();

    // The next tile's lengths are in flight during this tile's copy.
    const int64_t next = t0 + kThreads + threadIdx.x;
    len = next < end ? ragged_clamp(__ldg(p.lengths + next), width) : 0;
    const int segments = int(scan.total >> 32);
    for (int s0 = warp; s0 < segments; s0 += kWarps * kDepth) {
      Segment<kUnroll> seg[kDepth];
#pragma unroll
      for (int d = 0; d < kDepth; ++d) {
        const int s = s0 + d * kWarps;
        if (s < segments) {
          const int r = find_row(first_segment, rows, s, lane);
          const int j0 = (s - first_segment[r]) * kSegment;
          seg[d].n = min(kSegment, row_offset[r + 1] - row_offset[r] - j0);
          seg[d].src = p.dense + (t0 + r) * p.dense_row_stride + j0;
          seg[d].dst = p.indices_out + (base + row_offset[r] + j0);
          seg[d].load(lane);
        }
      }
#pragma unroll
      for (int d = 0; d < kDepth; ++d)
        if (s0 + d * kWarps < segments) seg[d].store(lane, p.num_kv, p.fill);
    }
    base += int32_t(uint32_t(scan.total));
    if (t0 + kThreads < end) __syncthreads();  // the next tile rewrites the shared arrays
  }
}

// Blocks the device holds at once, asked once per device: host time only and no launch, so it is
// safe during stream capture.
template <int kThreads, int kUnroll, int kDepth>
int resident_blocks(int device) {
  static PerDevice resident;
  return resident.get(device, [](int d) {
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ragged_pack_kernel<kThreads, kUnroll, kDepth>,
                                                      kThreads, 0) != cudaSuccess)
      return 0;
    return per_sm * device_sm_count(d);
  });
}

template <int kThreads, int kUnroll, int kDepth>
int launch(const RaggedPackParams& p, void* stream) {
  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return int(e);
  const int resident = resident_blocks<kThreads, kUnroll, kDepth>(device);
  if (resident <= 0) {
    const cudaError_t e = cudaGetLastError();
    return int(e != cudaSuccess ? e : cudaErrorInvalidConfiguration);
  }
  const int64_t blocks = ragged_pack_blocks(p.rows, resident);
  LaunchAttrs attr;
  const cudaLaunchConfig_t cfg =
      launch_config(unsigned(blocks), kThreads, 0, 0, static_cast<cudaStream_t>(stream), attr);
  return int(
      cudaLaunchKernelEx(&cfg, ragged_pack_kernel<kThreads, kUnroll, kDepth>, p, ragged_schedule(p.rows, blocks)));
}

}  // namespace

int ragged_pack(const RaggedPackParams& p, void* stream) { return launch<512, 16, 1>(p, stream); }

}  // namespace dsv4::cuda
