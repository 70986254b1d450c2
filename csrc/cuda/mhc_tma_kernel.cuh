// mhc_pre and V4.1's mhc_pre_delayed (streams entry) for hc_mult n = 4 and D = 4096 on sm_90a:
// the residual streamed by TMA into a shared-memory ring, projected by wgmma straight from it.
//
// Why: the pipeline kernel (mhc_pipeline_kernel.cuh) keeps the per-tile reduction chain off the
// critical path, but its workers load the residual into registers and run ~1300 instructions per
// 16-token tile (operand shuffles, mma.sync, CTA reduction): DRAM ran at ~30 % of its peak with the
// floor's bytes (benchmarks/NOTES.md). Here the projection costs one wgmma per 64 tokens x 72
// columns x 16 k with both operands in shared memory, and no thread touches the residual on its way
// from HBM to the tensor cores.
//
// A cluster of 16 CTAs splits the hidden dim: CTA q owns d in [256 q, 256 q + 256) of all 4
// streams. fn's slice (24 rows x 1024 k) is staged once as bf16 hi / mid / lo parts (hi + mid + lo
// = fn to 2^-27, so the bf16 products are exact to fp32), the wgmma B operand of N = 72 columns
// (part-major). Tiles are 64 tokens (the wgmma M); a tile is 8 stages of 64 tokens x 32 d x 4
// streams (16 KB, one 3-D TMA box per stream, 64-byte swizzle). Warp roles:
//  - warp 0: TMA producer over a ring of stages (see Ring) (lane 0; warps 1-11 stage fn meanwhile);
//  - warps 4-7 (a warpgroup): per stage the squares (or the 4x4 Gram matrix of the streams, for the
//    fused RMSNorm) on mma.sync from ldmatrix'ed stage words, then a chain of 8 wgmma from zero
//    (tensor cores truncate when they accumulate, so each 128-k chain is added to the sums with
//    rounded fp32 adds, its hi / mid / lo parts folded per stage); per tile each token's CTA
//    partial goes to its owner CTA (token % 16) by st.async;
//  - warps 1-3: owners; the two token pairs of a tile (16 lanes a token) go round them: the 16
//    partials of a token summed in rank order, RMS, the pre weights and the norm scale pushed to
//    every CTA first, then the sigmoids and the 16-lane Sinkhorn of comb (the pipeline's owner_mixes);
//  - warps 8-11: the collapse of each tile once its weights arrive, the residual re-read from L2.
// Rings of kRing slots carry partials and weights; a CTA pushes tile j's partials only after its
// own collapse of tile j - kRing, which needed every owner's weights of that tile, i.e. every owner
// had consumed that slot. Every reduction order depends only on D: batch-invariant. Tile j is loaded
// only after this CTA collapsed tile j - 2 and its boxes are kept in L2 (evict-last), so that the
// collapse's re-read hits L2.
// Decode (T <= 16: one 16-row box per stage, all 8 stages resident in the ring): the projection and
// collapse warps take one stage each on mma.sync (bit-identical to the wgmma chain), fn read from L2
// and split in registers; the last of them adds the 8 stage sums in stage order and pushes.
// Measured (H100, benchmarks/NOTES.md, sessions 2026-11-23 (7) and 2026-11-26): prefill 1.55x the
// pipeline (T = 16384: 410-420 us against 651), but decode 15.5-15.9 us at T <= 16 and 21-22 us at
// T = 17..64 against the pipeline's 13.5-14.1: not taken (batch invariance forbids mixing the two).
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include "mhc_pipeline_kernel.cuh"

namespace dsv4::cuda {

namespace tma_mhc {

using pipeline_mhc::DelayedArgs;
using pipeline_mhc::Mode;

constexpr int kN = 4;
constexpr int kC = 16;                   // CTAs per cluster
constexpr int kHidden = 4096;            // the one D this kernel takes (D/C = 256: fn's parts fit)
constexpr int kDs = kHidden / kC;        // d per CTA
constexpr int kTile = 64;                // tokens per tile: the wgmma M
constexpr int kStageD = 32;              // d per stage: 64-byte rows, 64-byte swizzle
constexpr int kSteps = kDs / kStageD;    // stages per tile
// TMA ring: 48 KB of stages. A stage is 4 stream boxes of `rows` tokens x 32 d; rows is 64 except
// when the whole batch is one tile (T <= 64), where boxes shrink to the batch (rounded up to 16) and
// the ring holds up to kMaxStages stages (all 8 of the tile at T <= 16). The wgmma still reads 64 rows; rows past the box belong
// to tokens past the batch, and each output row depends on its own A row only, so the arithmetic of
// a token is the same whatever the box.
constexpr int kRingBytes = 3 * kN * kTile * kStageD * 2;
constexpr int kMaxStages = 12;  // >= kSteps: a decode launch holds every stage
constexpr int kRing = 3;                 // partial / weight ring slots
// Tile j is loaded only after this CTA collapsed tile j - kLoadLag: bounds the tiles between a
// tile's load and its collapse's re-read, so that the re-read hits L2 (2 MB per tile and cluster).
constexpr int kLoadLag = 2;
constexpr int kOwned = kTile / kC;       // tokens of a tile each CTA owns
constexpr int kOwnerWarps = 3;
constexpr int kThreads = 384;            // producer + owners, the wgmma warpgroup, the collapse warpgroup
constexpr int kRows = kN * (kN + 2);     // 24 projections
constexpr int kCols = 3 * kRows;         // B columns: hi | mid | lo
constexpr int kGram = 10;
constexpr int kBBlock = kCols * 16 * 2;          // one k16 block of B
constexpr int kBBytes = kN * kDs / 16 * kBBlock;

template <bool kNorm>
constexpr int parts() {  // floats per token and rank: the projections, then sum_sq or the Gram matrix
  return kRows + (kNorm ? kGram : 1);
}
template <bool kNorm>
constexpr int parts_stride() {  // even: the pushes are 8-byte pairs
  return (parts<kNorm>() + 1) / 2 * 2;
}

// The ring's shape for a launch: box rows (64, or the one tile's tokens rounded up to 16).
struct Ring {
  int rows, stages;
  uint32_t box_bytes, stage_bytes;
  __host__ __device__ explicit Ring(int r)
      : rows(r),
        stages(kRingBytes / (kN * r * kStageD * 2) < kMaxStages ? kRingBytes / (kN * r * kStageD * 2) : kMaxStages),
        box_bytes(uint32_t(r) * kStageD * 2),
        stage_bytes(uint32_t(kN * r) * kStageD * 2) {}
};

template <bool kNorm>
struct alignas(16) Ctrl {
  uint64_t full[kMaxStages], empty[kMaxStages];
  uint64_t partials_full[kRing], weights_full[kRing], collapsed[kRing];
  uint64_t folded;  // decode: every stage parked its sums
  alignas(16) float weights[kRing][kTile][8];  // pre[4], the RMSNorm scale, padding
  alignas(16) float partials[kRing][kOwned][kC][parts_stride<kNorm>()];
  alignas(16) float owner_sums[kOwnerWarps][2][parts_stride<kNorm>()];
};

template <bool kNorm>
constexpr size_t smem_bytes() {
  return 1024 + size_t(kRingBytes) + kBBytes + sizeof(Ctrl<kNorm>);
}
static_assert(kMaxStages >= kSteps && kRingBytes / (kN * 16 * kStageD * 2) >= kSteps, "decode: every stage resident");
static_assert(smem_bytes<true>() <= 227 * 1024, "one CTA per SM on sm_90 (227 KB of shared memory)");
static_assert(kRing >= 3 && kSteps * (12 * 32 + 16 * kGram) <= 2 * kOwned * kC * parts_stride<true>() &&
                  kSteps * (12 * 32 + 16) <= 2 * kOwned * kC * parts_stride<false>(),
              "decode_stage's stage sums fit in partial slots 1-2");

using pipeline_mhc::cluster_addr;
using pipeline_mhc::mbar_arm;
using pipeline_mhc::mbar_wait;
using pipeline_mhc::smem_u32;

__device__ __forceinline__ void mbar_init_count(uint64_t* bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(bar)) : "memory");
}
__device__ __forceinline__ void st_async_v2(uint32_t remote, float a, float b, uint32_t remote_bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f32 [%0], {%1, %2}, [%3];" ::"r"(remote),
               "f"(a), "f"(b), "r"(remote_bar)
               : "memory");
}
__device__ __forceinline__ void st_async_f32(uint32_t remote, float a, uint32_t remote_bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];" ::"r"(remote),
               "r"(__float_as_uint(a)), "r"(remote_bar)
               : "memory");
}
// One stream's box of a stage: residual[t0 .. t0 + 63][stream][d0 .. d0 + 31], kept in L2 (policy).
__device__ __forceinline__ void tma_load_box(uint32_t dst, const CUtensorMap* map, int d0, int stream, int t0,
                                             uint32_t bar, uint64_t policy) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1, {%2, %3, "
      "%4}], [%5], %6;" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(d0), "r"(stream), "r"(t0), "r"(bar), "l"(policy)
      : "memory");
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_wait_all() { asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory"); }

// D (+)= A B, m64n72k16, bf16 operands from shared memory (descriptors), fp32 accumulators.
__device__ __forceinline__ void wgmma_n72(float (&d)[36], uint64_t desc_a, uint64_t desc_b, int accumulate) {
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %38, 0;\n"
      " wgmma.mma_async.sync.aligned.m64n72k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, "
      "%12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, "
      "%34, %35}, %36, %37, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}

// A: a stream's box, K-major rows of 64 bytes, 64-byte swizzle (8-row groups 512 bytes apart).
__device__ __forceinline__ uint64_t a_descriptor(uint32_t addr) {
  return uint64_t((addr & 0x3ffffu) >> 4) | (uint64_t(1) << 16) | (uint64_t(512 >> 4) << 32) | (uint64_t(2) << 62);
}
// B: one k16 block, K-major core matrices without swizzle: the two k halves 128 bytes apart, groups
// of 8 columns 256 bytes apart.
__device__ __forceinline__ uint64_t b_descriptor(uint32_t addr) {
  return uint64_t((addr & 0x3ffffu) >> 4) | (uint64_t(128 >> 4) << 16) | (uint64_t(256 >> 4) << 32);
}

// fn's slice as B blocks: block (u, i, h) holds k = d - (32 u + 16 h) of stream i for the d of this
// CTA; column n = part * 24 + row, one 16-byte row of 8 k per (n, k half). A thread splits 8
// consecutive fn values (hi + mid + lo exact: each remainder is exact in fp32) and stores one
// 16-byte row per part. Consecutive threads take consecutive rows: their stores fill whole 128-byte
// lines (the blocks are 2304 bytes, a multiple of the 128 banks' width, so threads that differ in
// d would all hit one bank group). The plain cvt (no NaN canonicalisation) is enough here: every
// path of a shape stages fn with this code, and a NaN in fn gives NaN mixes either way.
template <int kBatch>
__device__ __forceinline__ void stage_fn(const MhcPreParams& pp, int rank, unsigned char* b_smem, int tid,
                                         int nthreads, int u0, int nu) {
  const int octs = nu * (kStageD / 8);  // 8-d groups per (row, stream) in stages [u0, u0 + nu)
  const int items = kRows * kN * octs;
  // The loads of a batch are issued together: staging is on the decode chain.
  for (int q0 = tid; q0 < items; q0 += nthreads * kBatch) {
    float4 v[kBatch][2];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const int q = q0 + b * nthreads, r = q % kRows, dl = kStageD * u0 + 8 * ((q / kRows) % octs);
      const int i = q / (kRows * octs);
      if (q >= items) break;
      const float4* src =
          reinterpret_cast<const float4*>(pp.fn + int64_t(r) * kN * kHidden + i * kHidden + rank * kDs + dl);
      v[b][0] = __ldg(src);
      v[b][1] = __ldg(src + 1);
    }
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const int q = q0 + b * nthreads, r = q % kRows, dl = kStageD * u0 + 8 * ((q / kRows) % octs);
      const int i = q / (kRows * octs);
      if (q >= items) break;
      float f[8] = {v[b][0].x, v[b][0].y, v[b][0].z, v[b][0].w, v[b][1].x, v[b][1].y, v[b][1].z, v[b][1].w};
      const int u = dl / kStageD, h = (dl / 16) % 2, kh = (dl / 8) % 2;
      unsigned char* block = b_smem + ((u * kN + i) * 2 + h) * kBBlock + kh * 128;
#pragma unroll
      for (int part = 0; part < 3; ++part) {
        uint32_t w[4];
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(w[e]) : "f"(f[2 * e + 1]), "f"(f[2 * e]));
          f[2 * e] -= __uint_as_float(w[e] << 16);
          f[2 * e + 1] -= __uint_as_float(w[e] & 0xffff0000u);
        }
        const int n = part * kRows + r;
        *reinterpret_cast<uint4*>(block + (n / 8) * 256 + (n % 8) * 16) = make_uint4(w[0], w[1], w[2], w[3]);
      }
    }
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // the generic stores, seen by wgmma
}

// A fragments (mma m16n8k16) of one warp's 16 tokens, stream box `box`, k16 half h, read through the
// 64-byte swizzle by ldmatrix: a0 = (rows 0-7, k 0-7), a1 = (rows 8-15, k 0-7), a2, a3 = k 8-15.
__device__ __forceinline__ void load_a_frag(uint32_t box, int m0, int h, int lane, uint32_t (&a)[4]) {
  const int q = lane / 8, m = m0 + (q & 1) * 8 + lane % 8, chunk = (2 * h + (q >> 1)) ^ ((m >> 1) & 3);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
               : "r"(box + m * 64 + chunk * 16));
}

// Sum of squares (or the 4x4 Gram matrix) of a warp's 16 tokens over one stage's 32 d, on tensor cores:
// the diagonal of X_i X_k^T, B = X_k's own A words (B column n = token n). Each half's chain starts
// from zero (tensor cores truncate when they accumulate); the stage's sum is (0 + half 0) + half 1,
// which the caller adds to the tile's sums stage by stage (the projection's order). Lane (g, c = g / 2)
// holds the entries of tokens g (sq[.][0]) and g + 8 (sq[.][1]).
template <bool kNorm>
__device__ __forceinline__ void stage_gram(uint32_t stage, uint32_t box_bytes, int m0, int lane,
                                           float (&sq)[kNorm ? kGram : 1][2]) {
  const int g = lane / 4;
  constexpr int kPairs = kNorm ? kGram : 1;
#pragma unroll
  for (int q = 0; q < kPairs; ++q) sq[q][0] = sq[q][1] = 0.0f;
#pragma unroll 1
  for (int h = 0; h < 2; ++h) {  // not unrolled: one half's fragments live at a time
    uint32_t a[kN][4];
#pragma unroll
    for (int i = 0; i < kN; ++i) load_a_frag(stage + i * box_bytes, m0, h, lane, a[i]);
#pragma unroll
    for (int q = 0; q < kPairs; ++q) {
      float lo[4] = {}, hi[4] = {};
#pragma unroll
      for (int i = 0; i < (kNorm ? 1 : kN); ++i) {  // no norm: the 4 squares in one chain (positive terms)
        const int x = kNorm ? pipeline_mhc::gram_i(q) : i, y = kNorm ? pipeline_mhc::gram_k(q) : i;
        pipeline_mhc::mma_bf16(lo, a[x][0], a[x][1], a[x][2], a[x][3], a[y][0], a[y][2]);
        pipeline_mhc::mma_bf16(hi, a[x][0], a[x][1], a[x][2], a[x][3], a[y][1], a[y][3]);
      }
      sq[q][0] += (g & 1) ? lo[1] : lo[0];
      sq[q][1] += (g & 1) ? hi[3] : hi[2];
    }
  }
}

// A stage's wgmma chain (for i, for h: D += A_ih B_ih from zero) on mma.sync, for the 16 rows of one
// row block: one warp instead of a warpgroup, so that a decode CTA's 8 stages run on 8 warps at once.
// wgmma and mma.sync give the same bits for the same chain (checked on the H100 over 9.2 M outputs,
// benchmarks/NOTES.md), so a token's mixes do not depend on which of the two computed them.
// chain[jj] is the wgmma accumulator's group jj (columns 8 jj .. 8 jj + 7), same lane layout. The B
// fragments come straight from fn (L2) and are split in registers as stage_fn splits them (same
// cvt sequence, same bits): no staging on the decode chain. Column n = part * 24 + row, so lane
// (g, c) needs rows g, 8 + g, 16 + g at k = 2c, 2c + 1 (b0) and 2c + 8, 2c + 9 (b1) of each k16 block.
using StageFn = float2[kN][2][3][2];  // a lane's fn values of a stage: [i][h][row group][b0 / b1 pair]
__device__ __forceinline__ void load_stage_fn(const MhcPreParams& pp, int rank, int u, int lane, StageFn& f) {
  const int g = lane / 4, c = lane % 4;
#pragma unroll
  for (int i = 0; i < kN; ++i)
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
      for (int jj = 0; jj < 3; ++jj) {
        const float* src = pp.fn + int64_t(8 * jj + g) * kN * kHidden + i * kHidden + rank * kDs + kStageD * u +
                           16 * h + 2 * c;
        f[i][h][jj][0] = __ldg(reinterpret_cast<const float2*>(src));
        f[i][h][jj][1] = __ldg(reinterpret_cast<const float2*>(src + 8));
      }
}
__device__ __forceinline__ void stage_chain_mma(const StageFn& f, uint32_t stage, uint32_t box_bytes, int m0, int lane,
                                                float (&chain)[9][4]) {
#pragma unroll
  for (int jj = 0; jj < 9; ++jj) chain[jj][0] = chain[jj][1] = chain[jj][2] = chain[jj][3] = 0.0f;
#pragma unroll
  for (int i = 0; i < kN; ++i)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      uint32_t a[4];
      load_a_frag(stage + i * box_bytes, m0, h, lane, a);
#pragma unroll
      for (int jj = 0; jj < 3; ++jj) {
        float x0 = f[i][h][jj][0].x, x1 = f[i][h][jj][0].y, y0 = f[i][h][jj][1].x, y1 = f[i][h][jj][1].y;
#pragma unroll
        for (int part = 0; part < 3; ++part) {
          uint32_t b0, b1;
          asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(b0) : "f"(x1), "f"(x0));
          asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(b1) : "f"(y1), "f"(y0));
          x0 -= __uint_as_float(b0 << 16), x1 -= __uint_as_float(b0 & 0xffff0000u);
          y0 -= __uint_as_float(b1 << 16), y1 -= __uint_as_float(b1 & 0xffff0000u);
          pipeline_mhc::mma_bf16(chain[3 * part + jj], a[0], a[1], a[2], a[3], b0, b1);
        }
      }
    }
}

// A token row block's CTA partials (rows m0 + g and m0 + g + 8 of the tile) to their owners.
template <bool kNorm>
__device__ __forceinline__ void push_partials(Ctrl<kNorm>& ct, int rank, int s, int m0, const float (&acc)[12],
                                              const float (&sq)[kNorm ? kGram : 1][2], int lane) {
  const int g = lane / 4, c = lane % 4;
#pragma unroll
  for (int hrow = 0; hrow < 2; ++hrow) {
    const int m = m0 + g + 8 * hrow;
    const uint32_t owner = uint32_t(m % kC);
    const uint32_t bar = cluster_addr(&ct.partials_full[s], owner);
    const uint32_t dst = cluster_addr(&ct.partials[s][m / kC][rank][0], owner);
#pragma unroll
    for (int jj = 0; jj < 3; ++jj)
      st_async_v2(dst + 4 * (8 * jj + 2 * c), acc[4 * jj + 2 * hrow], acc[4 * jj + 2 * hrow + 1], bar);
    if (c == g / 2) {  // the lane holding this token's squares
      const uint32_t sdst = cluster_addr(&ct.partials[s][m / kC][rank][kRows], owner);
      if constexpr (kNorm) {
#pragma unroll
        for (int q = 0; q < kGram; q += 2) st_async_v2(sdst + 4 * q, sq[q][hrow], sq[q + 1][hrow], bar);
      } else {
        st_async_f32(sdst, sq[0][hrow], bar);
      }
    }
  }
}

template <Mode M, bool kNorm>
__device__ __forceinline__ void mma_loop(const MhcPreParams& pp, Ctrl<kNorm>& ct, const Ring& ring,
                                         const unsigned char* stages,
                                         const unsigned char* b_smem, int rank, int64_t first_tile, int64_t tile_step,
                                         int ntiles) {
  constexpr int kSq = kNorm ? kGram : 1;
  const int tid = threadIdx.x % 128, wi = tid / 32, lane = tid % 32, g = lane / 4, c = lane % 4;
  const uint32_t stages_u32 = smem_u32(stages);
  const uint64_t da0 = a_descriptor(stages_u32), db0 = b_descriptor(smem_u32(b_smem));
  for (int j = 0; j < ntiles; ++j) {
    float acc[12], sq[kSq][2];  // acc[4 jj + r]: rows 8 jj + 2c + (r & 1) of tokens g + 8 (r >> 1)
#pragma unroll
    for (int r = 0; r < 12; ++r) acc[r] = 0.0f;
#pragma unroll
    for (int q = 0; q < kSq; ++q) sq[q][0] = sq[q][1] = 0.0f;
    for (int u = 0; u < kSteps; ++u) {
      const int it = j * kSteps + u, slot = it % ring.stages;
      mbar_wait(&ct.full[slot], (it / ring.stages) & 1);
      // The squares first: their mma.sync would otherwise queue behind the wgmma chain on the same
      // tensor cores.
      float ssq[kSq][2];
      if (16 * wi < ring.rows) {
        stage_gram<kNorm>(stages_u32 + slot * ring.stage_bytes, ring.box_bytes, 16 * wi, lane, ssq);
#pragma unroll
        for (int q = 0; q < kSq; ++q) sq[q][0] += ssq[q][0], sq[q][1] += ssq[q][1];
      }
      float chain[36];
      wgmma_fence();
      // Descriptor start addresses are in 16-byte units in the low bits: offsets add directly.
      const uint64_t da = da0 + uint64_t((slot * ring.stage_bytes) >> 4), db = db0 + uint64_t((u * kN * 2 * kBBlock) >> 4);
#pragma unroll
      for (int i = 0; i < kN; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h)
          wgmma_n72(chain, da + uint64_t((i * ring.box_bytes + h * 32) >> 4), db + uint64_t(((i * 2 + h) * kBBlock) >> 4),
                    i + h);
      wgmma_commit();
      wgmma_wait_all();
      // The stage's three parts of each projection (column groups jj, jj + 3, jj + 6), smallest first.
#pragma unroll
      for (int r = 0; r < 12; ++r) acc[r] += (chain[r + 24] + chain[r + 12]) + chain[r];
      __syncwarp();
      if (lane == 0) mbar_arrive(&ct.empty[slot]);
    }
    // Slot reuse: this CTA's collapse of tile j - kRing is done (see the header).
    const int s = j % kRing;
    if (j >= kRing) mbar_wait(&ct.collapsed[s], ((j - kRing) / kRing) & 1);
    push_partials<kNorm>(ct, rank, s, 16 * wi, acc, sq, lane);
  }
}

// Decode (a launch of at most 16 tokens, one box row block): warp u of the 8 projection and collapse
// warps projects stage u on mma.sync (fn read and split in registers, nothing staged) and parks its
// stage sums in shared memory; the last warp adds them in stage order, i.e. the prefill loop's
// acc += stage with the same operands in the same order (same bits), and pushes the partials.
template <bool kNorm>
__device__ __forceinline__ void decode_stage(const MhcPreParams& pp, Ctrl<kNorm>& ct, const Ring& ring,
                                             const unsigned char* stages, int rank, int u) {
  constexpr int kSq = kNorm ? kGram : 1;
  const int lane = threadIdx.x % 32, g = lane / 4, c = lane % 4;
  StageFn f;  // issued first: the fn loads fly while the stage's boxes land
  load_stage_fn(pp, rank, u, lane, f);
  mbar_wait(&ct.full[u], 0);
  const uint32_t stage = smem_u32(stages) + u * ring.stage_bytes;
  float chain[9][4], ssq[kSq][2];
  stage_chain_mma(f, stage, ring.box_bytes, 0, lane, chain);
  stage_gram<kNorm>(stage, ring.box_bytes, 0, lane, ssq);
  // Stage sums in partial slots 1 and 2 (a one-tile launch receives only slot 0): the projections
  // [stage][value][lane], then the squares [stage][token][pair].
  float* folds = &ct.partials[1][0][0][0];
  float* grams = folds + kSteps * 12 * 32;
#pragma unroll
  for (int r = 0; r < 12; ++r) {
    const int jj = r / 4, e = r % 4;
    folds[(u * 12 + r) * 32 + lane] = (chain[jj + 6][e] + chain[jj + 3][e]) + chain[jj][e];
  }
  if (c == g / 2) {
#pragma unroll
    for (int q = 0; q < kSq; ++q) {
      grams[(u * 16 + g) * kSq + q] = ssq[q][0];
      grams[(u * 16 + g + 8) * kSq + q] = ssq[q][1];
    }
  }
  __syncwarp();
  if (lane == 0) mbar_arrive(&ct.folded);
  asm volatile("barrier.cluster.wait.acquire;" ::: "memory");  // the kernel's split barrier: pushes follow
  if (u + 1 < kSteps) return;
  mbar_wait(&ct.folded, 0);  // every stage parked its sums
  float acc[12] = {}, sq[kSq][2] = {};
  for (int v = 0; v < kSteps; ++v) {
#pragma unroll
    for (int r = 0; r < 12; ++r) acc[r] += folds[(v * 12 + r) * 32 + lane];
    if (c == g / 2) {
#pragma unroll
      for (int q = 0; q < kSq; ++q) {
        sq[q][0] += grams[(v * 16 + g) * kSq + q];
        sq[q][1] += grams[(v * 16 + g + 8) * kSq + q];
      }
    }
  }
  push_partials<kNorm>(ct, rank, 0, 0, acc, sq, lane);
  // The owners wait for all 64 rows' bytes: rows past the box are tokens past the batch.
  const float zero[12] = {};
  const float zero_sq[kSq][2] = {};
  for (int m0 = 16; m0 < kTile; m0 += 16) push_partials<kNorm>(ct, rank, 0, m0, zero, zero_sq, lane);
}

// Owners: the two token pairs of every tile (4 owned tokens, 16 lanes each) go round the owner
// warps, so that a decode tile's pairs run side by side. The collapse waits only for the pre weights
// and the norm scale, so they are pushed first; the Sinkhorn of comb (owner_mixes, which recomputes
// the same pre bits) follows. Each pair's warp re-arms the slot for its half of the bytes.
template <Mode M, bool kNorm>
__device__ __forceinline__ void owner_loop(const MhcPreParams& pp, const DelayedArgs& da, Ctrl<kNorm>& ct, int rank,
                                           int owner, int64_t first_tile, int64_t tile_step, int ntiles) {
  constexpr int kP = parts<kNorm>(), kPairs = kOwned / 2;
  const int lane = threadIdx.x % 32, half = lane / 16, sub = lane % 16;
  const MhcPreScalars& sc = pp.scalars;
  for (int idx = owner; idx < ntiles * kPairs; idx += kOwnerWarps) {
    const int j = idx / kPairs, pair = idx % kPairs, s = j % kRing;
    const int64_t tile = first_tile + j * tile_step;
    const int local = 2 * pair + half, m = local * kC + rank;
    const int64_t t = tile * kTile + m;
    float* sums = ct.owner_sums[owner][half];
    mbar_wait<2000>(&ct.partials_full[s], (j / kRing) & 1);
    for (int row = sub; row < kP; row += 16) {
      float v = 0.0f;
#pragma unroll
      for (int q = 0; q < kC; ++q) v += ct.partials[s][local][q][row];
      sums[row] = v;
    }
    __syncwarp();
    // The slot's next bytes come only after every CTA collapsed this tile.
    if (lane == 0) mbar_arm(&ct.partials_full[s], uint32_t(2 * kC * kP * sizeof(float)));
    const float sum_sq = kNorm ? (sums[kRows] + sums[kRows + 1]) + (sums[kRows + 2] + sums[kRows + 3]) : sums[kRows];
    const float w = pipeline_mhc::owner_weight<M>(pp, da, sums, sum_sq, t, sub);  // stream sub & 3's collapse weight
    float pre[kN];
#pragma unroll
    for (int k = 0; k < kN; ++k) pre[k] = __shfl_sync(0xffffffffu, w, half * 16 + k);
    float norm_scale = 1.0f;
    if constexpr (kNorm) {  // sum_d y_d^2 = pre^T Gx pre
      float ss = 0.0f;
#pragma unroll
      for (int q = 0; q < kGram; ++q) {
        ss += (q < kN ? 1.0f : 2.0f) * pre[pipeline_mhc::gram_i(q)] * pre[pipeline_mhc::gram_k(q)] * sums[kRows + q];
      }
      norm_scale = rms_factor(ss, pp.hidden, sc.norm_eps);
    }
    const uint32_t bar = cluster_addr(&ct.weights_full[s], uint32_t(sub));
    const uint32_t dst = cluster_addr(&ct.weights[s][m][0], uint32_t(sub));
    pipeline_mhc::st_async(dst, make_float4(pre[0], pre[1], pre[2], pre[3]), bar);
    pipeline_mhc::st_async(dst + 16, make_float4(norm_scale, 0.0f, 0.0f, 0.0f), bar);
    pipeline_mhc::owner_mixes<M>(pp, da, sums, sum_sq, t, sub);
    __syncwarp();  // sums is rewritten by this warp's next pair
  }
}

// 8 consecutive d of one token: y = sum_i pre_i x_i (or stream 0 alone), then the fused RMSNorm's
// rounding and scale. One function for both collapse paths, so that they round alike.
template <bool kNorm>
__device__ __forceinline__ void collapse8(const uint4 (&r)[kN], float4 pre, float norm_scale, const float (&wv)[8],
                                          bool identity, float (&out)[8]) {
#pragma unroll
  for (int e = 0; e < 8; ++e) {
    using pipeline_mhc::f32_of;
    const float y = identity ? f32_of(r[0], e)
                             : pre.x * f32_of(r[0], e) + pre.y * f32_of(r[1], e) + pre.z * f32_of(r[2], e) +
                                   pre.w * f32_of(r[3], e);
    out[e] = kNorm ? round_bf16(y) * norm_scale * wv[e] : y;
  }
}

// The collapse of each tile once its weights arrive. Prefill re-reads the residual from L2; a launch
// of at most 16 tokens still holds every stage in the ring (12 slots) and reads it from there.
template <bool kNorm>
__device__ __forceinline__ void collapse_loop(const MhcPreParams& pp, Ctrl<kNorm>& ct, const Ring& ring,
                                              const unsigned char* stages, int rank, int64_t first_tile,
                                              int64_t tile_step, int ntiles, bool identity) {
  const int tid = threadIdx.x % 128, lane = tid % 32;
  if (pp.tokens <= 16) {  // decode: every stage is still in the ring
    mbar_wait(&ct.weights_full[0], 0);
    for (int task = tid; task < 16 * kSteps * 4; task += 128) {  // (token m, stage u, 16-byte chunk ch)
      const int m = task / (kSteps * 4), u = (task / 4) % kSteps, ch = task % 4;
      const int64_t t = first_tile * kTile + m;
      if (t >= pp.tokens) continue;
      const int64_t d = int64_t(rank) * kDs + kStageD * u + 8 * ch;
      const unsigned char* row = stages + u * ring.stage_bytes + m * 64 + ((ch ^ ((m >> 1) & 3)) * 16);
      uint4 r[kN];
#pragma unroll
      for (int i = 0; i < kN; ++i) r[i] = *reinterpret_cast<const uint4*>(row + i * ring.box_bytes);
      float wv[8] = {}, out[8];
      if (kNorm) load_bf16x8(pp.norm_weight + d, wv);
      collapse8<kNorm>(r, *reinterpret_cast<const float4*>(&ct.weights[0][m][0]), ct.weights[0][m][4], wv, identity,
                       out);
      store_bf16x8(pp.layer_input + t * kHidden + d, out);
    }
    return;
  }
  const int64_t d = int64_t(rank) * kDs + 8 * (tid % 32);
  const int m0 = tid / 32;  // tokens m0, m0 + 4, ...
  float wv[8] = {};
  if (kNorm) load_bf16x8(pp.norm_weight + d, wv);
  constexpr int kBatch = 8;  // tokens whose loads are in flight together
  for (int j = 0; j < ntiles; ++j) {
    const int s = j % kRing;
    const int64_t tile = first_tile + j * tile_step;
    mbar_wait<1000>(&ct.weights_full[s], (j / kRing) & 1);
    for (int b = 0; b < kTile / 4; b += kBatch) {
      uint4 r[kBatch][kN];
#pragma unroll
      for (int k = 0; k < kBatch; ++k) {
        const int64_t t = tile * kTile + m0 + 4 * (b + k);
#pragma unroll
        for (int i = 0; i < kN; ++i)
          r[k][i] = t < pp.tokens ? __ldcs(reinterpret_cast<const uint4*>(pp.residual + (t * kN + i) * kHidden + d))
                                  : make_uint4(0, 0, 0, 0);
      }
#pragma unroll
      for (int k = 0; k < kBatch; ++k) {
        const int m = m0 + 4 * (b + k);
        const int64_t t = tile * kTile + m;
        float out[8];
        collapse8<kNorm>(r[k], *reinterpret_cast<const float4*>(&ct.weights[s][m][0]), ct.weights[s][m][4], wv,
                         identity, out);
        if (t < pp.tokens) store_bf16x8(pp.layer_input + t * kHidden + d, out);
      }
    }
    __syncwarp();
    if (lane == 0) mbar_arrive(&ct.collapsed[s]);
    // Re-arm after this thread's own wait: the next phase's bytes come only after this CTA's
    // collapse of this tile (every warp arrived on collapsed[s]).
    if (tid == 0) mbar_arm(&ct.weights_full[s], uint32_t(kTile * 8 * sizeof(float)));
  }
}

template <Mode M, bool kNorm>
__global__ void __launch_bounds__(kThreads, 1)
    mhc_tma_kernel(const __grid_constant__ CUtensorMap map, MhcPreParams pp, DelayedArgs da, int rows) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char* base = smem_raw + ((1024 - (smem_u32(smem_raw) & 1023)) & 1023);
  unsigned char* stages = base;
  unsigned char* b_smem = base + kRingBytes;
  const Ring ring(rows);
  Ctrl<kNorm>& ct = *reinterpret_cast<Ctrl<kNorm>*>(b_smem + kBBytes);
  constexpr int kP = parts<kNorm>();

  namespace cg = cooperative_groups;
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = int(cluster.block_rank());
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 0) asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(&map)) : "memory");

  const int64_t tiles = (pp.tokens + kTile - 1) / kTile;
  const bool decode = pp.tokens <= 16;  // one box row block: decode_stage's schedule
  if (threadIdx.x == 0) {
    for (int s = 0; s < ring.stages; ++s) {  // decode: 16-row boxes, 12 slots, every stage its own
      mbar_init_count(&ct.full[s], 1);
      mbar_init_count(&ct.empty[s], 4);
    }
    if (decode) mbar_init_count(&ct.folded, kSteps);
    for (int s = 0; s < kRing; ++s) {
      mbar_init_count(&ct.partials_full[s], kOwned / 2);  // one arrival per token pair
      mbar_init_count(&ct.weights_full[s], 1);
      mbar_init_count(&ct.collapsed[s], 4);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    for (int s = 0; s < kRing; ++s) {
      for (int pair = 0; pair < kOwned / 2; ++pair) mbar_arm(&ct.partials_full[s], uint32_t(2 * kC * kP * sizeof(float)));
      mbar_arm(&ct.weights_full[s], uint32_t(kTile * 8 * sizeof(float)));
    }
  }
  const int64_t cluster_id = blockIdx.x / kC, clusters = gridDim.x / kC;
  const int ntiles = cluster_id < tiles ? int((tiles - cluster_id + clusters - 1) / clusters) : 0;
  // Producer: stage `it` of this cluster's tiles into ring slot it % ring.stages.
  const int stages_total = ntiles * kSteps, early = stages_total < ring.stages ? stages_total : ring.stages;
  // The residual stays in L2 until the collapse re-reads it (evict-first there).
  uint64_t policy;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  const auto produce = [&](int it) {
    const int j = it / kSteps, u = it % kSteps, slot = it % ring.stages;
    const int t0 = int((cluster_id + int64_t(j) * clusters) * kTile);
    if (u == 0 && j >= kLoadLag)
      mbar_wait<1000>(&ct.collapsed[(j - kLoadLag) % kRing], ((j - kLoadLag) / kRing) & 1);
    if (it >= ring.stages) mbar_wait<1000>(&ct.empty[slot], ((it / ring.stages) & 1) ^ 1);  // the ring starts empty
    mbar_arm(&ct.full[slot], ring.stage_bytes);
    const uint32_t bar = smem_u32(&ct.full[slot]), dst = smem_u32(stages) + slot * ring.stage_bytes;
#pragma unroll
    for (int i = 0; i < kN; ++i) tma_load_box(dst + i * ring.box_bytes, &map, rank * kDs + u * kStageD, i, t0, bar, policy);
  };
  // Warp 0 issues the first stages (the ring starts empty) while the others stage fn.
  if (threadIdx.x == 0)
    for (int it = 0; it < early; ++it) produce(it);
  const bool identity = pipeline_mhc::is_delayed(M) && da.pre_mix == nullptr;
  if (!decode) {
    if (warp > 0) stage_fn<9>(pp, rank, b_smem, threadIdx.x - 32, kThreads - 32, 0, kSteps);
    __syncthreads();
    cluster.sync();  // every CTA's barriers are initialised before anyone pushes
    if (warp == 0) {
      if (threadIdx.x == 0)
        for (int it = early; it < stages_total; ++it) produce(it);
    } else if (warp <= kOwnerWarps) {
      owner_loop<M, kNorm>(pp, da, ct, rank, warp - 1, cluster_id, clusters, ntiles);
    } else if (warp < 8) {
      mma_loop<M, kNorm>(pp, ct, ring, stages, b_smem, rank, cluster_id, clusters, ntiles);
    } else {
      collapse_loop<kNorm>(pp, ct, ring, stages, rank, cluster_id, clusters, ntiles, identity);
    }
  } else {
    __syncthreads();  // this CTA's barriers are initialised: split cluster barrier, waited before any push
    asm volatile("barrier.cluster.arrive.release;" ::: "memory");
    if (warp >= 4) {
      decode_stage<kNorm>(pp, ct, ring, stages, rank, warp - 4);
      if (warp >= 8) collapse_loop<kNorm>(pp, ct, ring, stages, rank, cluster_id, clusters, ntiles, identity);
    } else {
      asm volatile("barrier.cluster.wait.acquire;" ::: "memory");
      if (warp == 0) {
        if (threadIdx.x == 0)
          for (int it = early; it < stages_total; ++it) produce(it);
      } else {
        owner_loop<M, kNorm>(pp, da, ct, rank, warp - 1, cluster_id, clusters, ntiles);
      }
    }
  }
  cluster.sync();  // no CTA leaves while its shared memory may still be written
}

// The residual [T, 4, D] as a 3-D tensor map (d, stream, token), boxes of 32 d x 1 x 64 tokens.
inline int make_residual_map(const MhcPreParams& pp, int rows, CUtensorMap& map) {
  static PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q) !=
            cudaSuccess ||
        q != cudaDriverEntryPointSuccess)
      fn = nullptr;
    cudaGetLastError();
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }();
  if (encode == nullptr) return -1;
  const cuuint64_t dims[3] = {cuuint64_t(kHidden), cuuint64_t(kN), cuuint64_t(pp.tokens)};
  const cuuint64_t strides[2] = {cuuint64_t(kHidden) * 2, cuuint64_t(kN) * kHidden * 2};
  const cuuint32_t box[3] = {cuuint32_t(kStageD), 1, cuuint32_t(rows)};
  const cuuint32_t elem[3] = {1, 1, 1};
  const CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, const_cast<bf16*>(pp.residual), dims, strides,
                            box, elem, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? 0 : -1;
}

template <Mode M, bool kNorm>
int launch_variant(const MhcPreParams& pp, const DelayedArgs& da, cudaStream_t stream) {
  const auto kernel = mhc_tma_kernel<M, kNorm>;
  constexpr size_t kSmem = smem_bytes<kNorm>();
  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return int(e);
  cudaLaunchAttribute attr;
  cudaLaunchConfig_t cfg = cluster_launch(unsigned(kC), unsigned(kThreads), unsigned(kC), kSmem, stream, attr);
  static std::mutex mu;
  static std::map<int, int> resident_cache;  // per device: clusters resident at once (0: cannot launch)
  int resident = 0;
  {
    const std::lock_guard<std::mutex> lock(mu);
    if (const auto it = resident_cache.find(device); it != resident_cache.end()) {
      resident = it->second;
    } else {
      int max_smem = 0;
      cudaDeviceGetAttribute(&max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
      cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
      if (kSmem > size_t(max_smem) || cudaOccupancyMaxActiveClusters(&resident, kernel, &cfg) != cudaSuccess)
        resident = 0;
      cudaGetLastError();  // a refused query is an answer (0), not an error of this launch
      resident_cache[device] = resident;
    }
  }
  if (resident == 0) return -1;
  const int64_t tiles = (pp.tokens + kTile - 1) / kTile;
  const int rows = tiles == 1 ? int((pp.tokens + 15) / 16 * 16) : kTile;
  CUtensorMap map;
  if (make_residual_map(pp, rows, map) != 0) return -1;
  cfg.gridDim = dim3(unsigned((tiles < resident ? tiles : resident) * kC));
  return int(cudaLaunchKernelEx(&cfg, kernel, map, pp, da, rows));
}

// Launches the TMA path; -1 when it does not apply (the caller then takes the pipeline kernel).
template <Mode M>
int launch(const MhcPreParams& pp, cudaStream_t stream, const DelayedArgs& da = {}) {
  static_assert(M == Mode::kPre || M == Mode::kDelayed, "mhc_pre and mhc_pre_delayed on the streams");
  if (pp.hc_mult != kN || pp.hidden != kHidden) return -1;
  if (pp.tokens == 0) return 0;
  const bool norm = pp.norm_weight != nullptr;
  if (!aligned16(pp.residual) || !aligned16(pp.fn) || !aligned16(pp.layer_input) ||
      (norm && !aligned16(pp.norm_weight)) || (pipeline_mhc::is_delayed(M) && da.new_pre == nullptr) ||
      pp.tokens > int64_t(1) << 31)
    return -1;
  return norm ? launch_variant<M, true>(pp, da, stream) : launch_variant<M, false>(pp, da, stream);
}

}  // namespace tma_mhc

}  // namespace dsv4::cuda
