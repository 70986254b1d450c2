// ragged_pack on CDNA, on the CUDA kernel's schedule (csrc/cuda/ragged_pack.cu; the shared math is
// in common/topk_math.h): one launch, no workspace, no host sync (../shared/spec/topk.md §6.3).
// A persistent grid of kBlocksPerCu workgroups per CU of the architecture (its CU count, as
// grid_for sizes the other HIP kernels; CDNA has no clusters), workgroup b owning the contiguous
// rows of ragged_block_begin. A workgroup
//  1. sums the clamped lengths of all rows before its range once (dwordx4 loads where aligned,
//     kPrefixBatch in flight per lane): blocks x R / 2 x 4 bytes over the launch, linear in R;
//  2. walks its rows kThreads at a time (a tile): block scans of the lengths and of the copy
//     segments give each row its output offset (its indptr entry is written there) and its
//     first segment;
//  3. copies the tile's segments, kSegment = 64 x kUnroll entries of one row each, round robin over
//     the waves: a wave issues the loads of kDepth segments before their stores, dwordx4 when a
//     row's source and destination share their alignment (int32 head and tail), else dwords.
// Nothing is written past indptr[R] of indices_out or past indptr_out[R]. indptr is int32 and the
// host checks R * W < 2^31, so int32 sums of clamped lengths are exact.
#include "../common/topk_math.h"
#include "cdna_common.h"
#include "hip_ops.h"

namespace dsv4::hip {

namespace {

constexpr int kThreads = 1024;
constexpr int kWaves = kThreads / kWave;
// 8 dwords a lane and one segment a wave in flight fit the 64-VGPR budget of 8 waves per SIMD
// (scripts/hip_isa_budget.json; kDepth 2 or kUnroll 16 spill): 64 KiB in flight per CU.
constexpr int kUnroll = 8;
constexpr int kSegment = kWave * kUnroll;
constexpr int kDepth = 1;  // segments in flight per wave
constexpr int kPrefixBatch = 4;
constexpr int kBlocksPerCu = 2;  // 32 waves a CU, 8 per SIMD (the most)
constexpr int kWavesPerSimd = kBlocksPerCu * kWaves / 4;
static_assert(kThreads <= kWave * kWave, "find_row searches 64 x 64 tile rows");
static_assert(kUnroll % 4 == 0, "a segment's 16-byte body is kUnroll / 4 vectors a lane");

// The last tile row r < rows (1 <= rows <= 64 x 64) whose first segment is <= s, for the whole
// wave: rows sharing a first segment are empty but the last, which holds it. Two ballots.
__device__ __forceinline__ int find_row(const int32_t* first_segment, int rows, int s, int lane) {
  const int coarse = lane * kWave;
  const uint64_t upper = Wave::ballot(coarse < rows && first_segment[coarse] <= s);
  const int r0 = (63 - __builtin_clzll(upper)) * kWave;  // bit 0 is set: first_segment[0] == 0 <= s
  const uint64_t lower = Wave::ballot(r0 + lane < rows && first_segment[r0 + lane] <= s);
  return r0 + 63 - __builtin_clzll(lower);
}

// One segment of a row as a wave copies it: entries [0, n) of src to dst (n <= kSegment).
struct Segment {
  const int32_t* src = nullptr;
  int32_t* dst = nullptr;
  int n = 0;
  Vec16<int32_t> v[kUnroll / 4];  // dwords lane + 64u (as v[u / 4].v[u % 4]), or vectors lane + 64k
  int32_t edge = 0;               // vector path: lanes 0-2 a dword of the head, lanes 3-5 one of the tail

  __device__ __forceinline__ void load(int lane) {
    if (ragged_same_alignment(src, dst)) {
      const RaggedSegmentShape shape = ragged_segment_shape(src, n);
      const auto* s4 = reinterpret_cast<const Vec16<int32_t>*>(src + shape.head);
#pragma unroll
      for (int k = 0; k < kUnroll / 4; ++k)
        if (lane + k * kWave < shape.quads) v[k] = s4[lane + k * kWave];
      const int e = ragged_segment_edge(shape, n, lane);
      if (e >= 0) edge = src[e];
    } else {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        if (lane + u * kWave < n) v[u / 4].v[u % 4] = src[lane + u * kWave];
    }
  }

  __device__ __forceinline__ void store(int lane, int64_t num_kv, int32_t fill) const {
    if (ragged_same_alignment(src, dst)) {
      const RaggedSegmentShape shape = ragged_segment_shape(src, n);
      auto* d4 = reinterpret_cast<Vec16<int32_t>*>(dst + shape.head);
#pragma unroll
      for (int k = 0; k < kUnroll / 4; ++k) {
        if (lane + k * kWave < shape.quads) {
          Vec16<int32_t> m;
#pragma unroll
          for (int j = 0; j < 4; ++j) m.v[j] = ragged_map(v[k].v[j], num_kv, fill);
          d4[lane + k * kWave] = m;
        }
      }
      const int e = ragged_segment_edge(shape, n, lane);
      if (e >= 0) dst[e] = ragged_map(edge, num_kv, fill);
    } else {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        if (lane + u * kWave < n) dst[lane + u * kWave] = ragged_map(v[u / 4].v[u % 4], num_kv, fill);
    }
  }
};

template <class Arch>
__global__ void __launch_bounds__(kThreads) __attribute__((amdgpu_waves_per_eu(kWavesPerSimd)))
ragged_pack_kernel(RaggedPackParams p, RaggedSchedule sched) {
  if constexpr (Arch::kThisTarget) {
    __shared__ int32_t row_offset[kThreads + 1];  // tile row -> first entry, from the tile's; [kThreads]: total
    __shared__ int32_t first_segment[kThreads];   // tile row -> first segment; rows past the tile: the count
    __shared__ int32_t scratch[kWaves];
    const int t = thread_id(), lane = t % kWave, w = t / kWave;
    const int32_t width = int32_t(p.width);
    const int64_t begin = ragged_block_begin(sched, block_id()), end = ragged_block_begin(sched, block_id() + 1);

    // 1. The output base. The first tile's lengths are loaded beside the prefix's.
    int32_t len = begin + t < end ? ragged_clamp(p.lengths[begin + t], width) : 0;
    int32_t base = 0;
    const auto load4 = [](const int32_t* q, int32_t(&out)[4]) {
      const Vec16<int32_t> v = *reinterpret_cast<const Vec16<int32_t>*>(q);
      out[0] = v.v[0], out[1] = v.v[1], out[2] = v.v[2], out[3] = v.v[3];
    };
    block_exclusive_sum<kThreads>(ragged_sum_lengths<kThreads, kPrefixBatch>(p.lengths, 0, begin, width, t, load4),
                                  scratch, &base);  // `base` gets the block total
    if (block_id() == 0 && t == 0) p.indptr_out[0] = 0;

    // 2. and 3., a tile at a time.
    for (int64_t t0 = begin; t0 < end; t0 += kThreads) {
      const int rows = int(end - t0 < kThreads ? end - t0 : kThreads);
      int32_t entries = 0, segments = 0;
      const int32_t offset = block_exclusive_sum<kThreads>(len, scratch, &entries);
      const int32_t first = block_exclusive_sum<kThreads>(int32_t(ragged_segments(len, kSegment)), scratch, &segments);
      row_offset[t] = offset;
      first_segment[t] = first;
      if (t == 0) row_offset[kThreads] = entries;
      if (t < rows) p.indptr_out[t0 + t + 1] = base + offset + len;
      block_barrier();

      // The next tile's lengths are in flight during this tile's copy.
      const int64_t next = t0 + kThreads + t;
      len = next < end ? ragged_clamp(p.lengths[next], width) : 0;
      for (int s0 = w; s0 < segments; s0 += kWaves * kDepth) {
        Segment seg[kDepth];
#pragma unroll
        for (int d = 0; d < kDepth; ++d) {
          const int s = s0 + d * kWaves;
          if (s < segments) {
            const int r = find_row(first_segment, rows, s, lane);
            const int j0 = (s - first_segment[r]) * kSegment;
            const int rest = row_offset[r + 1] - row_offset[r] - j0;
            seg[d].n = rest < kSegment ? rest : kSegment;
            seg[d].src = p.dense + (t0 + r) * p.dense_row_stride + j0;
            seg[d].dst = p.indices_out + (base + row_offset[r] + j0);
            seg[d].load(lane);
          }
        }
#pragma unroll
        for (int d = 0; d < kDepth; ++d)
          if (s0 + d * kWaves < segments) seg[d].store(lane, p.num_kv, p.fill);
      }
      base += entries;
      block_barrier();  // the next tile rewrites row_offset and first_segment
    }
  }
}

template <class Arch>
int launch_ragged_pack(const RaggedPackParams& p, void* stream) {
  const int64_t blocks = ragged_pack_blocks(p.rows, int64_t(Arch::kCus) * kBlocksPerCu);
  hipLaunchKernelGGL(ragged_pack_kernel<Arch>, unsigned(blocks), kThreads, 0, static_cast<hipStream_t>(stream), p,
                     ragged_schedule(p.rows, blocks));
  return int(hipGetLastError());
}

}  // namespace

namespace gfx942 {
int ragged_pack(const RaggedPackParams& p, void* stream) {
  return launch_ragged_pack<Gfx942>(p, stream);
}
}  // namespace gfx942

namespace gfx950 {
int ragged_pack(const RaggedPackParams& p, void* stream) {
  return launch_ragged_pack<Gfx950>(p, stream);
}
}  // namespace gfx950

}  // namespace dsv4::hip
