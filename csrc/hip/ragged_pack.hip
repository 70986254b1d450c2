// ragged_pack on CDNA, one launch, no workspace (../shared/spec/topk.md §6.3): each workgroup owns
// kRowsPerBlock consecutive rows, sums the clamped lengths of all earlier rows for its base (wave
// sums, then the 4 wave partials in order), and wave 0 places its rows with one DPP prefix scan,
// one lane per row writing that row's indptr entry. Then each wave copies its rows. Nothing past
// indptr[R] is written. indptr is int32 and the host checks R * W < 2^31, so 32-bit sums are exact.
#include "../common/topk_math.h"
#include "cdna_common.h"
#include "hip_ops.h"

namespace dsv4::hip {

namespace {

constexpr int kThreads = 256;
constexpr int kWaves = kThreads / kWave;
// 32 rows per workgroup: R = 8192 gives 256 workgroups, about one per CU on either arch, while
// the redundant base sums stay small (each workgroup reads at most R lengths from L2).
constexpr int kRowsPerBlock = 32;
// Loads in flight per lane in the copy. Source and destination of a row misalign independently
// (the destination offset is data), so the copy moves dwords; 64 consecutive lanes still make
// whole 256-byte wave transactions.
constexpr int kCopyUnroll = 8;

template <class Arch>
__global__ void __launch_bounds__(kThreads) ragged_pack_kernel(RaggedPackParams p) {
  if constexpr (Arch::kThisTarget) {
    __shared__ int32_t wave_part[kWaves];
    __shared__ int32_t row_offset[kRowsPerBlock];
    const int lane = thread_id() % kWave, w = thread_id() / kWave;
    const int64_t r0 = block_id() * kRowsPerBlock;

    int32_t before = 0;
#pragma unroll 8
    for (int64_t q = thread_id(); q < r0; q += kThreads) before += int32_t(ragged_length(p, q));
    before = wave::sum<Wave>(before);
    if (lane == 0) wave_part[w] = before;
    block_barrier();

    if (w == 0) {
      int32_t base = 0;
#pragma unroll
      for (int i = 0; i < kWaves; ++i) base += wave_part[i];
      const int64_t r = r0 + lane;
      const bool mine = lane < kRowsPerBlock && r < p.rows;
      const int32_t len = mine ? int32_t(ragged_length(p, r)) : 0;
      const int32_t offset = base + wave::exclusive_sum<Wave, int32_t>(len);
      if (lane < kRowsPerBlock) row_offset[lane] = offset;
      if (mine) p.indptr_out[r + 1] = offset + len;
      if (r == 0) p.indptr_out[0] = 0;
    }
    block_barrier();

    for (int local = w; local < kRowsPerBlock && r0 + local < p.rows; local += kWaves) {
      const int64_t row = r0 + local;
      const int n = int(ragged_length(p, row));
      const int32_t* src = p.dense + row * p.dense_row_stride;
      int32_t* dst = p.indices_out + row_offset[local];
      for (int j0 = lane; j0 < n; j0 += kWave * kCopyUnroll) {
        int32_t v[kCopyUnroll];
#pragma unroll
        for (int u = 0; u < kCopyUnroll; ++u) v[u] = j0 + u * kWave < n ? src[j0 + u * kWave] : 0;
#pragma unroll
        for (int u = 0; u < kCopyUnroll; ++u)
          if (j0 + u * kWave < n) dst[j0 + u * kWave] = ragged_map(v[u], p.num_kv, p.fill);
      }
    }
  }
}

template <class Arch>
int launch_ragged_pack(const RaggedPackParams& p, void* stream) {
  const int64_t blocks = (p.rows + kRowsPerBlock - 1) / kRowsPerBlock;
  hipLaunchKernelGGL(ragged_pack_kernel<Arch>, unsigned(blocks > 0 ? blocks : 1), kThreads, 0,
                     static_cast<hipStream_t>(stream), p);
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
