// Prefill path of the n = 4 mHC projection ops on sm_90 (mhc_pre, mhc_pre_delayed on the streams,
// hc_head, the fused post+pre ops and mhc_post_hc_head with streams_out): two kernels, each a plain
// stream with no chain inside it.
//
// Why: the single-pass pipeline (mhc_pipeline_kernel.cuh) reads the residual once, but its workers
// run ~1300 instructions per 16-token tile (projection, Gram matrix, CTA reduction, cluster pushes,
// collapse) and it keeps 7 clusters busy: DRAM ran at 25 % of its peak with exactly the floor's
// bytes (benchmarks/NOTES.md). Here:
//  1. project: CTA (slice q, group) stages fn's columns of d in [q*Ds, (q+1)*Ds) of all 4 streams as
//     bf16 hi/mid/lo parts (exact to fp32) in shared memory, once; each warp then streams whole
//     16-token tiles of that slice through bf16 mma (8 loads, 72 mma, 36 shared loads per 32 d), no
//     barrier, no reduction across warps, and stores the token's slice partial (24 or 4 fp32)
//     into the token's own layer_input row, which the finish kernel overwrites last (no workspace).
//     The fused ops apply mhc_post to the tile in registers first and store the new streams.
//  2. finish: one CTA per token re-reads the token's streams (or the stored new streams), sums the
//     slice partials in slice order and the squares in a fixed tree, runs the per-token math (RMS,
//     sigmoids, 16-lane Sinkhorn: the pipeline's owner code), collapses, applies the fused RMSNorm
//     and stores layer_input. Many independent CTAs per SM hide the per-token chain.
// The price is the second read of the streams (8*T*D bytes, from HBM); what it buys is a
// bandwidth-bound stream in each kernel. Every order depends on D only: batch-invariant.
#pragma once

#include "cuda_ops.h"
#include "mhc_pipeline_kernel.cuh"

namespace dsv4::cuda {

namespace pipeline_mhc {

// Warps per projection CTA: 2 warpgroups on their own tiles (~200 registers with two steps of loads
// in flight; 3 warpgroups with one step in flight measured slower).
template <Mode M>
constexpr int proj_warps() {
  return 8;
}
constexpr int kFinishGroups = 4;     // 8-d groups of all 4 streams per collapse thread
constexpr int kFinishThreads = 256;  // D <= 8192
constexpr int kMixWarps = 8;         // tokens per mix CTA
constexpr int kMixInCollapse = 1024; // up to this many tokens the collapse computes the weights

// The projection's kernel for an op: the delayed ops project as their undelayed twins.
constexpr Mode proj_mode(Mode m) {
  return m == Mode::kDelayed ? Mode::kPre : m == Mode::kFusedDelayed ? Mode::kFused : m;
}
// The projection runs as one wgmma per 64 tokens x 16 k: D[token][n] over n = part * kPS + row, the
// three bf16 parts of fn's rows side by side (N = 72 for the 24 mixes, 24 for hc_head's 4 rows).
template <Mode M>
constexpr int part_cols() {
  return (proj_rows<M>() + 7) / 8 * 8;
}
template <Mode M>
constexpr int wg_cols() {
  return 3 * part_cols<M>();
}
// Floats per token and slice in the partials: the projections, the sum of squares, padding.
template <Mode M>
constexpr int part_stride() {
  return proj_rows<M>() + 4;
}
// One k16 block of B: [N / 8 core matrices][2 k halves][8 n][8 k] bf16 (no swizzle, K-major).
template <Mode M>
constexpr int b_block_bytes() {
  return wg_cols<M>() * 16 * 2;
}
template <Mode M, int kSteps>
constexpr size_t proj_smem() {
  return size_t(kSteps) * kN * 2 * b_block_bytes<M>();
}

// Token t's slice partials, [slices][part_stride] fp32, parked at the start of its layer_input
// row; the mix kernel then leaves the token's 4 collapse weights in the row's first 16 bytes.
__device__ __forceinline__ float* partial_row(const MhcPreParams& pp, int64_t t) {
  return reinterpret_cast<float*>(pp.layer_input + t * pp.hidden);
}

// Makes this thread's generic-proxy shared-memory stores (the staged B blocks) visible to the async
// proxy that wgmma reads them through; then a barrier publishes them to the warpgroup.
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_wait_all() { asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory"); }
template <int kRegs>
__device__ __forceinline__ void fence_operands(float (&d)[kRegs]) {
#pragma unroll
  for (int r = 0; r < kRegs; ++r) asm volatile("" : "+f"(d[r])::"memory");
}

// D (+)= A B, m64n72k16, A = bf16 from registers, B = bf16 K-major in shared memory (descriptor).
__device__ __forceinline__ void wgmma_n72(float (&d)[36], const uint32_t (&a)[4], uint64_t desc, int accumulate) {
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %41, 0;\n"
      " wgmma.mma_async.sync.aligned.m64n72k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35}, {%36, %37, %38, %39}, %40, p, 1, 1, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(accumulate));
}

// D (+)= A B, m64n24k16, A = bf16 from registers, B = bf16 K-major in shared memory (descriptor).
__device__ __forceinline__ void wgmma_n24(float (&d)[12], const uint32_t (&a)[4], uint64_t desc, int accumulate) {
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %17, 0;\n"
      " wgmma.mma_async.sync.aligned.m64n24k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, %16, p, 1, 1, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(accumulate));
}

// Shared-memory matrix descriptor, no swizzle: LBO = 128 bytes between the two k halves' core
// matrices, SBO = 256 bytes between 8-column groups.
__device__ __forceinline__ uint64_t b_descriptor(uint32_t smem_addr) {
  return uint64_t((smem_addr & 0x3ffffu) >> 4) | (uint64_t(128 >> 4) << 16) | (uint64_t(256 >> 4) << 32);
}

template <Mode M>
__device__ __forceinline__ void wgmma_cols(float (&d)[wg_cols<M>() / 2], const uint32_t (&a)[4], uint64_t desc,
                                           int accumulate) {
  if constexpr (wg_cols<M>() == 72) {
    wgmma_n72(d, a, desc, accumulate);
  } else {
    static_assert(wg_cols<M>() == 24, "72 or 24 columns");
    wgmma_n24(d, a, desc, accumulate);
  }
}

// Sum of squares of tokens g and 8 + g over a lane quad's 32 d of all streams: the diagonal of X X^T
// (A = the two tokens' words, B = each token's own words). Positive terms: one chain per step.
__device__ __forceinline__ void squares(const uint4 (&r)[2][kN], int g, float (&sq)[2]) {
  float lo[4] = {}, hi[4] = {};
#pragma unroll
  for (int i = 0; i < kN; ++i) {
    const uint4 &a = r[0][i], &b = r[1][i];
    mma_bf16(lo, a.x, b.x, a.y, b.y, a.x, a.y);
    mma_bf16(lo, a.z, b.z, a.w, b.w, a.z, a.w);
    mma_bf16(hi, a.x, b.x, a.y, b.y, b.x, b.y);
    mma_bf16(hi, a.z, b.z, a.w, b.w, b.z, b.w);
  }
  sq[0] = (g & 1) ? lo[1] : lo[0];  // valid on the lane with c == g / 2
  sq[1] = (g & 1) ? hi[3] : hi[2];
}

// Stages fn's columns of slice q for steps [u0, u1) as B blocks (u, i, s) at (n = part * kPS + r, k):
// the 8 d 8c'..8c'+7 of a step hold (s, kh, e) = (d / 4, d / 2 % 2, d % 2) -> k = 8kh + 2c' + e, so
// each 8 d of a row become four 4-byte words per part. Rows kRows .. kPS are zero.
template <Mode M, int kSteps>
__device__ __forceinline__ void stage_fn(const MhcPreParams& pp, int q, unsigned char* smem, int u0, int u1, int tid,
                                         int nthreads, int u_base = 0) {
  constexpr int kRows = proj_rows<M>(), kPS = part_cols<M>(), kDs = kSteps * kWarpD, kBlock = b_block_bytes<M>();
  const int64_t hidden = pp.hidden, k_total = int64_t(kN) * hidden;
  const int per_step = kPS * kN * (kWarpD / 8);  // (r, i, c') items of 8 d
  const int items = (u1 - u0) * per_step;
  constexpr int kBatch = 4;  // items per thread whose loads are in flight together
  for (int base = tid; base < items; base += kBatch * nthreads) {
    float f[kBatch][8];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const int idx = base + b * nthreads, rest = idx % per_step, r = rest / (kN * 4);
#pragma unroll
      for (int e = 0; e < 8; ++e) f[b][e] = 0.0f;
      if (idx < items && r < kRows) {
        const int u = u0 + idx / per_step, i = (rest / 4) % kN, cc = rest % 4;
        const float* src = pp.fn + r * k_total + i * hidden + int64_t(q) * kDs + u * kWarpD + 8 * cc;
        const float4 v0 = __ldg(reinterpret_cast<const float4*>(src));
        const float4 v1 = __ldg(reinterpret_cast<const float4*>(src + 4));
        f[b][0] = v0.x, f[b][1] = v0.y, f[b][2] = v0.z, f[b][3] = v0.w;
        f[b][4] = v1.x, f[b][5] = v1.y, f[b][6] = v1.z, f[b][7] = v1.w;
      }
    }
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const int idx = base + b * nthreads;
      if (idx >= items) break;
      const int u = u0 + idx / per_step, rest = idx % per_step;
      const int r = rest / (kN * 4), i = (rest / 4) % kN, cc = rest % 4;
#pragma unroll
      for (int w = 0; w < 4; ++w) {  // word w = (s, kh) = (w / 2, w % 2): d 2w, 2w + 1
        // hi + mid + lo = f: each difference is exact in fp32 (pack_bf16x2 rounds as to_bf16).
        const float x0 = f[b][2 * w], x1 = f[b][2 * w + 1];
        const uint32_t hi = pack_bf16x2(x0, x1);
        const float r0 = x0 - __uint_as_float(hi << 16), r1 = x1 - __uint_as_float(hi & 0xffff0000u);
        const uint32_t mid = pack_bf16x2(r0, r1);
        const uint32_t lo = pack_bf16x2(r0 - __uint_as_float(mid << 16), r1 - __uint_as_float(mid & 0xffff0000u));
        const int block = ((u - u_base) * kN + i) * 2 + w / 2, kh = w % 2;
        const uint32_t parts[3] = {hi, mid, lo};
#pragma unroll
        for (int pt = 0; pt < 3; ++pt) {
          const int n = pt * kPS + r;
          *reinterpret_cast<uint32_t*>(smem + block * kBlock + (n / 8) * 256 + kh * 128 + (n % 8) * 16 + 4 * cc) =
              parts[pt];
        }
      }
    }
  }
}

// A fragments of one 32-d step: lane (g, c) holds tokens g and g + 8, 8 d each; k16 half s takes
// d 4s, 4s+1 (k 2c, 2c+1) and 4s+2, 4s+3 (k 2c+8, 2c+9): the order stage_fn gives B. Issues the
// step's chain (8 wgmma from zero: tensor cores truncate when they accumulate, so each step's
// chain is added to the sums with rounded fp32 adds) and commits it; the caller waits.
template <Mode M, int kRegs>
__device__ __forceinline__ void issue_step(const uint4 (&r)[2][kN], uint32_t b_step, float (&chain)[kRegs],
                                           uint32_t (&a)[kN][2][4]) {
#pragma unroll
  for (int i = 0; i < kN; ++i) {
    const uint4 &x0 = r[0][i], &x1 = r[1][i];
    a[i][0][0] = x0.x, a[i][0][1] = x1.x, a[i][0][2] = x0.y, a[i][0][3] = x1.y;
    a[i][1][0] = x0.z, a[i][1][1] = x1.z, a[i][1][2] = x0.w, a[i][1][3] = x1.w;
  }
  fence_operands(chain);
  wgmma_fence();
#pragma unroll
  for (int i = 0; i < kN; ++i)
#pragma unroll
    for (int s = 0; s < 2; ++s) wgmma_cols<M>(chain, a[i][s], b_descriptor(b_step + (i * 2 + s) * b_block_bytes<M>()), i + s > 0);
  wgmma_commit();
}

// Lane (g, c): columns 8j + 2c + e of tokens g (regs 4j + e) and g + 8 (4j + 2 + e); the parts of row
// r are columns r, kPS + r, 2 kPS + r: the same lane. Stores the slice partials of warp tile `sub`.
template <Mode M>
__device__ __forceinline__ void store_partials(const MhcPreParams& pp, int64_t sub, int q,
                                               const float (&acc)[wg_cols<M>() / 2], const float (&sq)[2], int g,
                                               int c) {
  constexpr int kRows = proj_rows<M>(), kPS = part_cols<M>(), kOut = part_stride<M>();
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int64_t t = sub * kTile + g + 8 * h;
    if (t >= pp.tokens) continue;
    float* dst = partial_row(pp, t) + q * kOut;
#pragma unroll
    for (int j = 0; j < kPS / 8; ++j)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        const int r = 8 * j + 2 * c + e, k = 4 * j + 2 * h + e;
        if (r < kRows) dst[r] = (acc[k + 4 * 2 * (kPS / 8)] + acc[k + 4 * (kPS / 8)]) + acc[k];
      }
    if (c == (g >> 1)) dst[kRows] = sq[h];
  }
}

// The projection (prefill): CTA (slice q, group) stages fn's columns of its slice once; each
// warpgroup then streams 64-token tiles of the slice (its warp w: tokens 16w .. 16w + 15), loads two
// steps ahead, with no barrier between warpgroups.
template <Mode M, int kSteps, int kWarps = proj_warps<M>()>
__global__ void __launch_bounds__(kWarps * 32, 1) mhc_project_kernel(MhcFusedParams p, int slices) {
  constexpr int kRegs = wg_cols<M>() / 2, kDs = kSteps * kWarpD, kStepBytes = kN * 2 * b_block_bytes<M>();
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const MhcPreParams& pp = p.pre;
  const int q = int(blockIdx.x % unsigned(slices));
  const int group = int(blockIdx.x / unsigned(slices)), groups = int(gridDim.x / unsigned(slices));
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, c = lane % 4;
  const int wg = warp / 4, w = warp % 4;
  stage_fn<M, kSteps>(pp, q, smem_raw, 0, kSteps, threadIdx.x, blockDim.x);
  fence_proxy_async();
  __syncthreads();
  const uint32_t b_base = smem_u32(smem_raw);

  const int64_t tiles = (pp.tokens + 4 * kTile - 1) / (4 * kTile);  // 64-token tiles
  constexpr int kGroupsPerCta = kWarps / 4;
  const int64_t tile_step = int64_t(groups) * kGroupsPerCta;
  const int64_t d0 = int64_t(q) * kDs + 8 * c;  // the lane's 8 d of step 0
  int64_t tile = int64_t(group) * kGroupsPerCta + wg;
  if (tile >= tiles) return;  // whole warpgroups leave together
  // (tile, step) in order; loads run two steps ahead into two buffers used by name (the steps are
  // unrolled, over two tiles when kSteps is odd), so no load result is ever copied while in flight.
  constexpr int kTilesPerPass = kSteps % 2 == 0 ? 1 : 2;
  const auto advance = [&](int64_t& t, int& u) {
    if (++u == kSteps) u = 0, t += tile_step;
  };
  TileLoad<M> buf[2];
  int64_t lt = tile;
  int lu = 0;
#pragma unroll
  for (int k = 0; k < 2; ++k) {
    if (lt < tiles) load_tile<M>(p, lt * 4 + w, d0 + lu * kWarpD, g, buf[k]);
    advance(lt, lu);
  }
  for (; tile < tiles; tile += kTilesPerPass * tile_step) {
#pragma unroll
    for (int tt = 0; tt < kTilesPerPass; ++tt) {
      const int64_t sub = (tile + tt * tile_step) * 4 + w;  // this warp's 16-token tile
      if (tt > 0 && tile + tt * tile_step >= tiles) break;
      float acc[kRegs] = {};
      float sq[2] = {0.0f, 0.0f};
#pragma unroll
      for (int u = 0; u < kSteps; ++u) {
        TileLoad<M>& cur = buf[(tt * kSteps + u) % 2];
        apply_post<M>(p, sub, d0 + u * kWarpD, g, cur);
        float chain[kRegs];
        uint32_t a[kN][2][4];
        issue_step<M>(cur.r, b_base + u * kStepBytes, chain, a);
        float step_sq[2];
        squares(cur.r, g, step_sq);
        wgmma_wait_all();  // the A registers (which may be cur's) are free only now
        fence_operands(chain);
        if (lt < tiles) load_tile<M>(p, lt * 4 + w, d0 + lu * kWarpD, g, cur);  // two steps on
        advance(lt, lu);
#pragma unroll
        for (int r = 0; r < kRegs; ++r) acc[r] += chain[r];
        sq[0] += step_sq[0], sq[1] += step_sq[1];
      }
      store_partials<M>(pp, sub, q, acc, sq, g, c);
    }
  }
}

// The projection for few tokens (decode): a cluster of kSteps CTAs per (slice q, 64-token tile),
// CTA u staging and running step u only; the step chains meet in rank 0's shared memory and are
// added there in the prefill kernel's order, so a token gets the same bits on either path.
template <Mode M, int kSteps>
__global__ void __launch_bounds__(128, 1) mhc_project_decode_kernel(MhcFusedParams p, int slices) {
  constexpr int kRegs = wg_cols<M>() / 2, kDs = kSteps * kWarpD, kStepBytes = kN * 2 * b_block_bytes<M>();
  extern __shared__ __align__(16) unsigned char smem_raw[];
  float* chains = reinterpret_cast<float*>(smem_raw + kStepBytes);  // rank 0: [u][kRegs + 2][128]
  cg::cluster_group cluster = cg::this_cluster();
  const MhcPreParams& pp = p.pre;
  const int u = int(cluster.block_rank());
  const int64_t slice_tile = blockIdx.x / unsigned(kSteps);
  const int q = int(slice_tile % slices);
  const int64_t tile = slice_tile / slices;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, c = lane % 4;
  const int64_t sub = tile * 4 + warp;
  const int64_t d = int64_t(q) * kDs + u * kWarpD + 8 * c;
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");  // the collapse may launch and load
  TileLoad<M> in;
  load_tile<M>(p, sub, d, g, in);
  stage_fn<M, kSteps>(pp, q, smem_raw, u, u + 1, threadIdx.x, 128, u);
  fence_proxy_async();
  cluster.sync();  // B is staged, and every CTA of the cluster runs (DSMEM below)
  apply_post<M>(p, sub, d, g, in);
  float chain[kRegs];
  uint32_t a[kN][2][4];
  issue_step<M>(in.r, smem_u32(smem_raw), chain, a);
  float sq[2];
  squares(in.r, g, sq);
  wgmma_wait_all();
  fence_operands(chain);
  float* dst = cluster.map_shared_rank(chains, 0) + u * (kRegs + 2) * 128 + threadIdx.x;
#pragma unroll
  for (int r = 0; r < kRegs; ++r) dst[r * 128] = chain[r];
  dst[kRegs * 128] = sq[0];
  dst[(kRegs + 1) * 128] = sq[1];
  cluster.sync();
  if (u != 0) return;
  float acc[kRegs] = {};
  float tot[2] = {0.0f, 0.0f};
  for (int v = 0; v < kSteps; ++v) {
    const float* src = chains + v * (kRegs + 2) * 128 + threadIdx.x;
#pragma unroll
    for (int r = 0; r < kRegs; ++r) acc[r] += src[r * 128];
    tot[0] += src[kRegs * 128], tot[1] += src[(kRegs + 1) * 128];
  }
  store_partials<M>(pp, sub, q, acc, tot, g, c);
}

// The per-token math on one warp: slice partials summed in slice order -> sums (shared, 32 floats),
// RMS, sigmoids, Sinkhorn (the pipeline's owner code; it stores post / comb / new_pre); returns the
// collapse weight of stream lane & 3.
template <Mode M>
__device__ __forceinline__ float token_weights(const MhcPreParams& pp, const DelayedArgs& da, int slices, int64_t t,
                                               float* sums, int lane) {
  constexpr int kRows = proj_rows<M>(), kOut = part_stride<M>();
  const float* parts = partial_row(pp, t);
  if (lane <= kRows) {
    float v = 0.0f;
    constexpr int kBatch = 8;  // loads in flight together; the adds stay in slice order
    for (int s0 = 0; s0 < slices; s0 += kBatch) {
      float x[kBatch];
#pragma unroll
      for (int b = 0; b < kBatch; ++b) x[b] = s0 + b < slices ? parts[(s0 + b) * kOut + lane] : 0.0f;
#pragma unroll
      for (int b = 0; b < kBatch; ++b)
        if (s0 + b < slices) v += x[b];
    }
    sums[lane] = v;
  }
  __syncwarp();
  return owner_mixes<M>(pp, da, sums, sums[kRows], t, lane);
}

// Large T: one warp per token computes the weights and leaves them in the token's row.
template <Mode M>
__global__ void __launch_bounds__(kMixWarps * 32) mhc_mix_kernel(MhcFusedParams p, DelayedArgs da, int slices) {
  __shared__ float sums[kMixWarps][32];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int64_t t = int64_t(blockIdx.x) * kMixWarps + warp;
  if (t >= p.pre.tokens) return;
  const float w = token_weights<M>(p.pre, da, slices, t, sums[warp], lane);
  __syncwarp();  // every lane has read the partials
  if (lane < kN) partial_row(p.pre, t)[lane] = w;
}

// The collapse, one CTA per token: y = sum_i w_i x_i over the token's streams (the stored new streams
// for the fused ops), the fused RMSNorm, layer_input. kMix: warp 0 computes the weights first (few
// tokens: one launch less); else they come from the mix kernel.
template <Mode M, bool kNorm, bool kMix>
__global__ void __launch_bounds__(kFinishThreads) mhc_collapse_kernel(MhcFusedParams p, DelayedArgs da, int slices) {
  __shared__ float sums[32];
  __shared__ float red[32];
  __shared__ __align__(16) float weights[kN];
  const MhcPreParams& pp = p.pre;
  const int64_t hidden = pp.hidden, t = blockIdx.x;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
  const bf16* src = (has_post(M) ? p.post.out : pp.residual) + t * kN * hidden;
  const int64_t groups = hidden / 8;
  // Launched as a programmatic dependent of the projection (decode): the fused ops' streams are its
  // output, so wait before loading them; mhc_pre's are an input, so load them first.
  if (has_post(M)) asm volatile("griddepcontrol.wait;" ::: "memory");
  uint4 x[kFinishGroups][kN];
#pragma unroll
  for (int j = 0; j < kFinishGroups; ++j) {
    const int64_t gi = threadIdx.x + int64_t(j) * blockDim.x;
#pragma unroll
    for (int i = 0; i < kN; ++i)
      x[j][i] = gi < groups ? __ldcs(reinterpret_cast<const uint4*>(src + i * hidden + 8 * gi)) : make_uint4(0, 0, 0, 0);
  }
  if (!has_post(M)) asm volatile("griddepcontrol.wait;" ::: "memory");  // the partials are in
  if constexpr (kMix) {
    if (warp == 0) {
      const float w = token_weights<M>(pp, da, slices, t, sums, lane);
      if (lane < kN) weights[lane] = w;
    }
  } else {
    (void)slices;
    if (threadIdx.x == 0)
      *reinterpret_cast<float4*>(weights) = *reinterpret_cast<const float4*>(partial_row(pp, t));
  }
  __syncthreads();  // the weights are in; the row (partials, weights) may be overwritten from here

  // identity (the delayed op without pre_mix): stream 0 bitwise, whatever the others hold.
  const bool identity = is_delayed(M) && da.pre_mix == nullptr;
  const float pre[kN] = {weights[0], weights[1], weights[2], weights[3]};
  float y[kFinishGroups][8];
  float ys = 0.0f;
#pragma unroll
  for (int j = 0; j < kFinishGroups; ++j)
#pragma unroll
    for (int e = 0; e < 8; ++e) {
      y[j][e] = identity ? f32_of(x[j][0], e)
                         : pre[0] * f32_of(x[j][0], e) + pre[1] * f32_of(x[j][1], e) +
                               pre[2] * f32_of(x[j][2], e) + pre[3] * f32_of(x[j][3], e);
      // mhc_post_hc_head's final norm is taken on the stored (rounded) head output (spec §4.6).
      const float yn = M == Mode::kFusedHead ? round_bf16(y[j][e]) : y[j][e];
      ys = fmaf(yn, yn, ys);
    }
  float norm_scale = 1.0f;
  if constexpr (kNorm) {
    ys = warp_sum(ys);
    if (lane == 0) red[warp] = ys;
    __syncthreads();
    float total = 0.0f;
    for (int w = 0; w < warps; ++w) total += red[w];
    norm_scale = rms_factor(total, hidden, pp.scalars.norm_eps);
  }
  bf16* out = pp.layer_input + t * hidden;
#pragma unroll
  for (int j = 0; j < kFinishGroups; ++j) {
    const int64_t gi = threadIdx.x + int64_t(j) * blockDim.x;
    if (gi >= groups) continue;
    if constexpr (kNorm) {
      float wv[8];
      load_bf16x8(pp.norm_weight + 8 * gi, wv);
#pragma unroll
      for (int e = 0; e < 8; ++e) y[j][e] = round_bf16(y[j][e]) * norm_scale * wv[e];
    }
    store_bf16x8(out + 8 * gi, y[j]);
  }
}

// Projection steps of 32 d per slice for D (0: this path does not apply): slices of 256 or 224 d
// (the staged parts of 224 fit one CTA per SM too), whichever keeps more SMs on whole slices
// (D = 7168: 32 slices x 4 groups = 128 CTAs rather than 28 x 4 = 112).
inline int twopass_steps(int64_t hidden, int sms) {
  const auto covered = [&](int64_t ds) { return hidden % ds == 0 ? sms / (hidden / ds) * (hidden / ds) : -1; };
  const int64_t c8 = covered(8 * kWarpD), c7 = covered(7 * kWarpD);
  return c8 < 0 && c7 < 0 ? 0 : c8 >= c7 ? 8 : 7;
}

template <Mode M, bool kNorm, int kSteps>
int launch_twopass(const MhcFusedParams& p, const DelayedArgs& da, cudaStream_t stream) {
  constexpr Mode kProj = proj_mode(M);
  const MhcPreParams& pp = p.pre;
  const int slices = int(pp.hidden / (kSteps * kWarpD));
  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return int(e);
  const int sms = device_sm_count(device);
  const int64_t tiles64 = (pp.tokens + 4 * kTile - 1) / (4 * kTile);
  // Shared-memory opt-in once per device and kernel; returns CTAs per SM (0: cannot launch).
  const auto opt_in = [&](PerDevice& cache, auto kernel, int threads, size_t smem) {
    return cache.get(device, [&](int) {
      int n = 0;
      if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)) != cudaSuccess ||
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads, smem) != cudaSuccess)
        n = 0;
      cudaGetLastError();
      return n;
    });
  };
  if (tiles64 * slices * kSteps <= 2 * int64_t(sms)) {  // decode: a cluster per (slice, tile)
    const auto project = mhc_project_decode_kernel<kProj, kSteps>;
    constexpr size_t smem = size_t(kN * 2 * b_block_bytes<kProj>()) +
                            size_t(kSteps) * (wg_cols<kProj>() / 2 + 2) * 128 * sizeof(float);
    static PerDevice resident;
    if (opt_in(resident, project, 128, smem) <= 0) return -1;
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t cfg = cluster_launch(unsigned(tiles64 * slices * kSteps), 128, unsigned(kSteps), smem, stream, attr);
    if (const cudaError_t e = cudaLaunchKernelEx(&cfg, project, p, slices); e != cudaSuccess) return int(e);
  } else {
    const auto go = [&](auto kernel, int warps) {
      constexpr size_t smem = proj_smem<kProj, kSteps>();
      static PerDevice resident;
      const int per_sm = opt_in(resident, kernel, warps * 32, smem);
      if (per_sm <= 0) return -1;
      int64_t groups = int64_t(per_sm) * sms / slices;
      const int64_t useful = (tiles64 + warps / 4 - 1) / (warps / 4);  // no CTA without a tile
      groups = groups < 1 ? 1 : groups > useful ? useful : groups;
      kernel<<<unsigned(groups * slices), warps * 32, smem, stream>>>(p, slices);
      return 0;
    };
    const int err = go(mhc_project_kernel<kProj, kSteps>, proj_warps<kProj>());
    if (err < 0) return -1;
  }
  // Few tokens: the weights inside the collapse (one launch less); many: a separate pass, so that
  // the collapse is a pure stream.
  const bool decode = pp.tokens <= kMixInCollapse;
  if (!decode) {
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return int(e);
    mhc_mix_kernel<M><<<unsigned((pp.tokens + kMixWarps - 1) / kMixWarps), kMixWarps * 32, 0, stream>>>(p, da, slices);
  }
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return int(e);
  const int64_t per_thread = (pp.hidden / 8 + kFinishGroups - 1) / kFinishGroups;
  const unsigned threads = unsigned((per_thread + 31) / 32 * 32);
  if (decode) {
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(unsigned(pp.tokens));
    cfg.blockDim = dim3(threads);
    cfg.stream = stream;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    return int(cudaLaunchKernelEx(&cfg, mhc_collapse_kernel<M, kNorm, true>, p, da, slices));
  } else {
    mhc_collapse_kernel<M, kNorm, false><<<unsigned(pp.tokens), threads, 0, stream>>>(p, da, slices);
  }
  return int(cudaGetLastError());
}

template <Mode M, bool kNorm>
int launch_prefill(const MhcFusedParams& p, const DelayedArgs& da, cudaStream_t stream) {
  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return int(e);
  const int steps = twopass_steps(p.pre.hidden, device_sm_count(device));
  if (steps == 0 || p.pre.hidden > 8 * kFinishGroups * kFinishThreads || p.pre.tokens > 0x7fffffffLL) return -1;
  return steps == 8 ? launch_twopass<M, kNorm, 8>(p, da, stream) : launch_twopass<M, kNorm, 7>(p, da, stream);
}

}  // namespace pipeline_mhc

}  // namespace dsv4::cuda
