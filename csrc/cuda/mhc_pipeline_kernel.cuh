// Fast path of mhc_pre / mhc_fused_post_pre / hc_head / mhc_post_hc_head (with streams_out) and of
// V4.1's mhc_pre_delayed (streams entry) / mhc_fused_post_pre_delayed for hc_mult n = 4 on sm_90: a
// software pipeline over 16-token tiles in which no CTA ever waits for a whole tile's reduction chain.
//
// Why: the per-tile chain (projection, cluster reduction, RMS, sigmoids, a 20-step Sinkhorn,
// broadcast of the pre weights, collapse) takes ~10 us, while HBM delivers a 16-token tile to the
// cluster in ~1.5 us. A design that runs the chain tile by tile keeps one tile in flight per
// cluster and streams at ~20 % of the roof (the cluster kernel this replaced). By Little's law the
// chain needs ~6 tiles in flight per cluster; here they are:
//
// A cluster of C CTAs (16, or 8 when D is not a multiple of 512) splits the hidden dim: CTA q owns
// d in [q*D/C, (q+1)*D/C) of all 4 streams; worker warp w 32 consecutive d (a stage; the decode
// engine of mhc_pre / mhc_pre_delayed at D = 4096 has two warps a stage, kSplitWarps); lane (g, c) =
// (lane/4, lane%4) 8 consecutive d of tokens g and g+8 of a tile. fn's slice (24 rows x 4*D/C) sits
// in shared memory (staged) or is read from L2 when the cluster runs one tile (decode); see Engine
// for its forms (bf16 hi/mid/lo parts with bf16 mma where they fit, else tf32 hi + lo; either way
// exact to fp32, not TF32; decode splits fn as prefill does for the same D, so bits never depend
// on T). A decode batch of up to 28 (56) tokens takes tiles of 4 (8) tokens, one a cluster, so that it
// spreads over up to 7 clusters (TileMap; the fused seam at T = 16 7.1 -> 6.1 us). The sum of squares
// and the Gram matrix run on CUDA cores with the bf16 parts and on the tensor cores with tf32
// (tile_squares). Roles:
//  - worker warps, iteration j: project tile j, reduce it over
//    the CTA's warps and push the CTA partial of every token to the token's owner CTA with
//    st.async (the bytes complete the owner's mbarrier); then collapse tile j - kLag, whose pre
//    weights arrived meanwhile, re-reading its residual from L2 (it was read kLag tiles ago);
//  - owner warps (O per CTA, each owning every O-th tile; CTA q owns tokens q, q + C of a tile):
//    wait for the C partials of a token, sum them in rank order, push the 4 pre weights (and the
//    fused RMSNorm's scale) into every CTA with st.async, then run the post mixes and the 16-lane
//    Sinkhorn and store post / comb (the collapse does not wait for those).
// Rings of kRing slots carry partials and weights; slot reuse needs no extra barrier because a CTA
// pushes tile j only after collapsing tile j - kLag - 1, i.e. after every owner finished with the
// slot's previous tile (kRing >= kLag + 1). The residual comes from HBM once; L2 serves the re-read.
//
// The fused RMSNorm needs sum_d y_d^2 of y = sum_i pre_i x_i before any output: with the 4x4 Gram
// matrix Gx of the streams projected alongside (10 more partial sums), sum_d y_d^2 = pre^T Gx pre,
// known to the owner with the pre weights, so the norm costs no second round trip.
// The fused ops first apply mhc_post to the tile in registers, store the bf16 residual_out and
// project exactly those rounded values; their collapse re-reads residual_out (mhc_post_hc_head: the
// streams_out stash, with hc_head's n projections and its final RMSNorm fused as mhc_pre's). Every
// reduction order depends only on D: batch-invariant. The delayed ops (DeepSeek-V4.1) are mhc_pre /
// the fused op whose owners store the new pre weights and hand the carried ones (or stream 0 alone)
// to the collapse.
// Measured (H100, benchmarks/NOTES.md): the workers rarely wait for weights, so the chain is off the
// critical path; what bounds the kernel is the workers' latency per tile (12 warps per SM, ~1000
// instructions per worker and tile at ~10 cycles each) and the L2 hit rate of the re-read. So
// mhc_pre / mhc_pre_delayed / hc_head prefill at D = 4096 runs on the TMA kernel (mhc_tma_kernel.cuh), which
// computes the bf16 engine's chains term for term: keep the two in step.
#pragma once

#include <cooperative_groups.h>

#include <map>
#include <mutex>
#include <tuple>

#include "../common/mhc_math.h"
#include "../common/op_params.h"
#include "cuda_common.cuh"

namespace dsv4::cuda {

namespace pipeline_mhc {

namespace cg = cooperative_groups;

enum class Mode { kPre, kFused, kHead, kDelayed, kFusedDelayed, kFusedHead };

// The fused ops apply mhc_post to the tile first; the delayed ones (V4.1) collapse with carried weights.
constexpr bool has_post(Mode m) { return m == Mode::kFused || m == Mode::kFusedDelayed || m == Mode::kFusedHead; }
// hc_head's projection (n rows, the pre weights only): hc_head, and mhc_post_hc_head (the model's
// final seam: the post applied in registers, the streams stored as the MTP stash, the optional final
// RMSNorm fused as mhc_pre's).
constexpr bool is_head(Mode m) { return m == Mode::kHead || m == Mode::kFusedHead; }
constexpr bool is_delayed(Mode m) { return m == Mode::kDelayed || m == Mode::kFusedDelayed; }

// mhc_pre_delayed's extra operands (DeepSeek-V4.1): the collapse uses the carried pre weights
// (pre_mix, or stream 0 alone when there is none) and this op's own pre weights go to new_pre.
struct DelayedArgs {
  const float* pre_mix;  // [T, n] or null
  float* new_pre;        // [T, n]
};

// Where the projection's fn operand comes from. kBf16: this CTA's fn slice split once into three
// bf16 parts (hi + mid + lo = fn to 2^-27) in shared memory, so the bf16 residual feeds the mma as
// it was loaded (no operand conversion, no per-tile split); needs 6 bytes per fn element: used for
// D/C = 256 (D = 4096 at n = 4; 152 KB). kTf32: the fp32 slice in shared memory, split into tf32
// hi + lo per tile (D/C up to 448). The clusters that run one tile (decode) read fp32 fn from L2 and split it as the staged
// engine of their shape does, so that a token gets the same bits whatever else is in the batch:
// kGlobalBf16 (the bf16 parts, split per use) where prefill stages kBf16, else kGlobal (tf32).
enum class Engine { kGlobal, kGlobalBf16, kTf32, kBf16 };
constexpr bool bf16_parts(Engine e) { return e == Engine::kBf16 || e == Engine::kGlobalBf16; }

constexpr int kN = 4;
constexpr int kBf16Pad = 32;     // bf16 elements after each staged row: conflict-free 16-byte loads
constexpr int kBf16Slice = 256;  // D/C of the bf16 engine, fixed so that every fn offset is an immediate
constexpr int kTile = 16;        // tokens per tile: the mma M dimension
constexpr int kWarpD = 32;       // d per worker warp
constexpr int kMaxWorkers = 14;  // D / C <= 448
constexpr int kMaxWarps = 16;    // workers + owners: 512 threads, 128 registers each
constexpr int kFewWarps = 12;    // D / C <= 256: 384 threads, 168 registers each (no spills)
// The decode bf16 engine of mhc_pre and mhc_pre_delayed: two worker warps per stage (the first takes
// row block 0 and the squares, the second row blocks 1 and 2), 16 workers + 4 owners, 96 registers a
// thread. A decode tile's projection is the workers' own instruction stream (~620 instructions a lane,
// benchmarks/NOTES.md); split over two warps it measured 0.4-0.6 us shorter a call. Same chains, same
// sums: same bits.
constexpr int kSplitWarps = 20;
constexpr int kLag = 2;          // tiles between a tile's projection and its collapse
constexpr int kRing = 8;         // ring slots; >= kLag + 1, a multiple of the owner count
constexpr int kGram = 10;        // upper triangle of the 4x4 stream Gram matrix

template <Mode M>
constexpr int proj_rows() {
  return is_head(M) ? kN : kN * (kN + 2);
}
// Partial sums per token: the projections, then the sum of squares, or the Gram matrix (its
// diagonal first) when the fused RMSNorm needs it.
template <Mode M, bool kNorm>
constexpr int parts() {
  return proj_rows<M>() + (kNorm ? kGram : 1);
}
template <Mode M, bool kNorm>
constexpr int parts_padded() {
  return (parts<M, kNorm>() + 3) / 4 * 4;
}

static_assert(kRing >= kLag + 1, "a slot is reused only after its previous tile was collapsed");

template <Mode M, bool kNorm>
struct alignas(16) Shared {
  static constexpr int kP = parts_padded<M, kNorm>();
  uint64_t partials_full[kRing];   // owner side: C partials of each owned token arrived
  uint64_t weights_full[kRing];    // worker side: the weights of all 16 tokens arrived
  float weights[kRing][kTile][8];  // pre[4], the RMSNorm scale, padding
  float partials[kRing][kTile][kP];  // [owned token][source rank], kTile entries in all
  float owner_sums[4][kP];         // one row per owner warp
  float warp_part[kMaxWorkers][kTile][kP];
};

// ---- PTX: mbarriers, DSMEM stores that complete a remote mbarrier, named barriers ----
// smem_u32, cluster_addr, the mbarrier helpers and the st.async stores: cuda_common.cuh.
__device__ __forceinline__ void workers_sync(int workers) {
  asm volatile("bar.sync 1, %0;" ::"r"(workers * 32) : "memory");
}

__device__ __forceinline__ void mma_tf32(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                         uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// D += A B on bf16 operands, fp32 accumulate: bf16 products are exact in fp32.
__device__ __forceinline__ void mma_bf16(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                         uint32_t b0, uint32_t b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// bf16 element e (0..7) of a 16-byte chunk as a tf32 operand (exact: the low 16 bits are zero).
__device__ __forceinline__ uint32_t tf32_of(const uint4& v, int e) {
  const uint32_t w = (&v.x)[e / 2];
  return (e & 1) ? (w & 0xffff0000u) : (w << 16);
}

__device__ __forceinline__ float f32_of(const uint4& v, int e) { return __uint_as_float(tf32_of(v, e)); }

// hi + lo = f exactly; hi has a tf32 mantissa, lo is what tf32 keeps of the rest (error 2^-24 |f|).
__device__ __forceinline__ void split_tf32(float f, uint32_t& hi, uint32_t& lo) {
  hi = __float_as_uint(f) & 0xffffe000u;
  lo = __float_as_uint(f - __uint_as_float(hi));
}

// Which token a tile row holds. Prefill tiles hold 16 consecutive tokens (the mma M); a decode batch
// whose clusters run one tile each may spread its tokens over more clusters with 4 or 8 a tile (rows
// past 2^shift hold no token: loaded as zeros, never stored), so that each cluster, one GPC, moves
// fewer bytes and applies fewer tokens' post. A token's chains and sums are those of its row, and an
// mma row's result depends on that row alone: the same bits in any row, whatever the tile size.
struct TileMap {
  int64_t tokens;
  int shift;  // 2^shift tokens a tile: 4, 8 or kTile (shifts, not a division or a multiply, on every call's path)
  __device__ __forceinline__ int64_t token(int64_t tile, int row) const {
    return row < (1 << shift) ? (tile << shift) + row : tokens;  // tokens: no token (every use checks t < tokens)
  }
  __host__ __device__ int64_t tiles() const { return (tokens + (int64_t(1) << shift) - 1) >> shift; }
};
constexpr int kTileShift = 4;  // log2(kTile)
static_assert(kTile == 1 << kTileShift, "TileMap shifts");

// A lane's streams of one tile: 2 tokens (g, g+8) x 4 streams x 8 d; zeros past the last token.
// kLastUse: the collapse's re-read, the tile's last use: a coherent streaming load (the fused op
// re-reads its own residual_out) that marks the lines evict-first, so that L2 keeps the tiles still
// waiting for their collapse rather than those already collapsed. Else the non-coherent path.
template <bool kLastUse = false>
__device__ __forceinline__ void load_streams(const bf16* base, const TileMap& tm, int64_t hidden, int64_t tile,
                                             int64_t d, int g, uint4 (&r)[2][kN]) {
  const int64_t tokens = tm.tokens;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int64_t t = tm.token(tile, g + 8 * h);
#pragma unroll
    for (int i = 0; i < kN; ++i) {
      const uint4* src = reinterpret_cast<const uint4*>(base + (t * kN + i) * hidden + d);
      r[h][i] = t >= tokens ? make_uint4(0, 0, 0, 0) : kLastUse ? __ldcs(src) : __ldg(src);
    }
  }
}

template <Mode M>
struct TileLoad {
  uint4 r[2][kN];
  uint4 x[has_post(M) ? 2 : 1];  // the fused op's layer output
};

template <Mode M>
__device__ __forceinline__ void load_tile(const MhcFusedParams& p, const TileMap& tm, int64_t tile, int64_t d, int g,
                                          TileLoad<M>& in) {
  const int64_t hidden = p.pre.hidden;
  load_streams(has_post(M) ? p.post.residual : p.pre.residual, tm, hidden, tile, d, g, in.r);
  if constexpr (has_post(M)) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int64_t t = tm.token(tile, g + 8 * h);
      in.x[h] = t < p.pre.tokens ? __ldg(reinterpret_cast<const uint4*>(p.post.x + t * hidden + d))
                                 : make_uint4(0, 0, 0, 0);
    }
  }
}

// mhc_post on one 16-byte chunk (8 d) of a token: new_j = bf16(post_j x + sum_i comb_ij r_i) in mhc_post's
// FMA order (comb row-major: comb[kN i + j]). Per 32-bit word (2 d) each input is widened once and each
// output pair packed by one cvt. The pipeline's fused ops and the TMA kernel's fused seam call it: the
// stash's bits.
__device__ __forceinline__ void post_chunk(const uint4& x, const uint4 (&r)[kN], const float* post, const float* comb,
                                           uint4 (&out)[kN]) {
  uint32_t o[kN][4];
#pragma unroll
  for (int w = 0; w < 4; ++w) {
    float xv[2], rv[kN][2];
#pragma unroll
    for (int e = 0; e < 2; ++e) {
      xv[e] = f32_of(x, 2 * w + e);
#pragma unroll
      for (int i = 0; i < kN; ++i) rv[i][e] = f32_of(r[i], 2 * w + e);
    }
#pragma unroll
    for (int j = 0; j < kN; ++j) {
      float acc[2];
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        acc[e] = __fmul_rn(post[j], xv[e]);
#pragma unroll
        for (int i = 0; i < kN; ++i) acc[e] = __fmaf_rn(comb[kN * i + j], rv[i][e], acc[e]);
      }
      o[j][w] = pack_bf16x2(acc[0], acc[1]);
    }
  }
#pragma unroll
  for (int j = 0; j < kN; ++j) out[j] = make_uint4(o[j][0], o[j][1], o[j][2], o[j][3]);
}

// The fused op's post half on a lane's chunks (post_chunk), stored as residual_out; the rounded values
// replace r (the pre half projects those). The mixes come as float4 (the launcher checks their
// alignment).
template <Mode M>
__device__ __forceinline__ void apply_post(const MhcFusedParams& p, const TileMap& tm, int64_t tile, int64_t d, int g,
                                           TileLoad<M>& in) {
  if constexpr (has_post(M)) {
    const int64_t hidden = p.pre.hidden;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int64_t t = tm.token(tile, g + 8 * h);
      if (t >= p.pre.tokens) continue;
      const float4 post4 = __ldg(reinterpret_cast<const float4*>(p.post.post_mix + t * kN));
      const float post[kN] = {post4.x, post4.y, post4.z, post4.w};
      float comb[kN][kN];  // [i][j]
#pragma unroll
      for (int i = 0; i < kN; ++i) {
        const float4 c4 = __ldg(reinterpret_cast<const float4*>(p.post.comb_mix + (t * kN + i) * kN));
        comb[i][0] = c4.x, comb[i][1] = c4.y, comb[i][2] = c4.z, comb[i][3] = c4.w;
      }
      post_chunk(in.x[h], in.r[h], post, &comb[0][0], in.r[h]);
#pragma unroll
      for (int j = 0; j < kN; ++j) *reinterpret_cast<uint4*>(p.post.out + (t * kN + j) * hidden + d) = in.r[h][j];
    }
  }
}

// A lane's hc_scale / hc_base operands (stream i = lane & 3, comb entry e = lane & 15), loaded once
// before the owner's first wait: loaded where they are used, after a token's partials arrived, they
// put an L2 round trip on every token's chain (the decode call's among them).
struct OwnerConsts {
  float pre_scale, pre_base, post_scale, post_base, comb_scale, comb_base;
};

template <Mode M>
__device__ __forceinline__ OwnerConsts owner_consts(const MhcPreParams& p, int lane) {
  OwnerConsts k{};
  k.pre_scale = __ldg(p.hc_scale);
  k.pre_base = __ldg(p.hc_base + (lane & 3));
  if constexpr (!is_head(M)) {
    k.post_scale = __ldg(p.hc_scale + 1);
    k.post_base = __ldg(p.hc_base + kN + (lane & 3));
    k.comb_scale = __ldg(p.hc_scale + 2);
    k.comb_base = __ldg(p.hc_base + 2 * kN + (lane & 15));
  }
  return k;
}

// The delayed ops' collapse weight of stream lane & 3 for token t: the carried pre_mix, or stream 0
// alone; loaded before the owner waits for the token's partials (it does not depend on them).
template <Mode M>
__device__ __forceinline__ float carried_weight(const MhcPreParams& p, const DelayedArgs& da, int64_t t, int lane) {
  const int i = lane & 3;
  if constexpr (is_delayed(M)) {
    if (t >= p.tokens) return 0.0f;
    return da.pre_mix != nullptr ? __ldg(da.pre_mix + t * kN + i) : (i == 0 ? 1.0f : 0.0f);
  } else {
    return 0.0f;
  }
}

// mhc_pre's pre weight of stream lane & 3 from the cluster-wide sums and the RMS factor r.
__device__ __forceinline__ float pre_weight(const MhcPreParams& p, const OwnerConsts& k, const float* sums, float r,
                                           int lane) {
  return sigmoid(sums[lane & 3] * r * k.pre_scale + k.pre_base) + p.scalars.hc_pre_eps;
}

// Owner of one token, first half: the collapse weight of stream lane & 3 from the cluster-wide sums
// (the pre weight sigmoid(..) + eps, or for the delayed ops the carried one, `carried`). This is all
// the collapse waits for, so the owner pushes it before owner_mixes.
template <Mode M>
__device__ __forceinline__ float owner_weight(const MhcPreParams& p, const OwnerConsts& k, float carried,
                                              const float* sums, float sum_sq, int lane) {
  if constexpr (is_delayed(M)) {
    return carried;
  } else {
    return pre_weight(p, k, sums, rms_factor(sum_sq, int64_t(kN) * p.hidden, p.scalars.rms_eps), lane);
  }
}

// 1/x correctly rounded, as __frcp_rn, without its slow-path branch and call, which held up the
// owners' Sinkhorn chain (-0.3 us a decode call, benchmarks/NOTES.md). MUFU.RCP and one Newton step,
// what __frcp_rn runs for normal x with a normal reciprocal; x outside [2^-125, 2^125] is scaled by a
// power of two first (exact), and 0 / inf keep MUFU's inf / 0. The same bits as __frcp_rn for every
// |x| <= 2^126 (benchmarks/rcp_rn_bits.cu checks all floats); above, 1/x is subnormal and may round
// twice, which no Sinkhorn sum reaches.
// In range (scale 1, r finite and nonzero) the result is the refined MUFU value, computed straight
// from x so that the scaling and the checks stay off the Sinkhorn's dependent chain.
__device__ __forceinline__ float rcp_rn(float x) {
  const float ax = fabsf(x);
  float r0;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r0) : "f"(x));
  const float fast = fmaf(r0, fmaf(-x, r0, 1.0f), r0);
  const float scale = ax < 0x1p-125f ? 0x1p64f : ax > 0x1p125f ? 0x1p-64f : 1.0f;
  const float xs = x * scale;
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(xs));
  const float refined = fmaf(r, fmaf(-xs, r, 1.0f), r);
  const float slow = (isinf(r) || r == 0.0f ? r : refined) * scale;
  return ax >= 0x1p-125f && ax <= 0x1p125f ? fast : slow;
}

// Second half, for the ops with post and comb mixes: post, comb (16-lane Sinkhorn; lanes 16..31
// mirror 0..15 and store nothing) and, for the delayed ops, this op's own pre weights (new_pre).
template <Mode M>
__device__ __forceinline__ void owner_mixes(const MhcPreParams& p, const DelayedArgs& da, const OwnerConsts& k,
                                            const float* sums, float sum_sq, int64_t t, int lane) {
  static_assert(!is_head(M), "hc_head has no post or comb mixes");
  const MhcPreScalars& s = p.scalars;
  const float r = rms_factor(sum_sq, int64_t(kN) * p.hidden, s.rms_eps);
  const int i = lane & 3;
  const bool valid = t < p.tokens;
  const float post = s.hc_post_mult_value * sigmoid(sums[kN + i] * r * k.post_scale + k.post_base);
  const int e = lane & 15;  // comb entry (row e/4, column e%4)
  float c = sums[2 * kN + e] * r * k.comb_scale + k.comb_base;
  // Row (column) sums of the butterfly (c_e + c_e^1) + (c_e^2 + c_e^3): its value on every lane of
  // the row, commutation aside, with the three shuffles issued at once instead of two dependent
  // rounds: the Sinkhorn is a chain of 40 of these sums.
  const auto row_sum = [](float v) {
    const float v1 = __shfl_xor_sync(0xffffffffu, v, 1), v2 = __shfl_xor_sync(0xffffffffu, v, 2),
                v3 = __shfl_xor_sync(0xffffffffu, v, 3);
    return (v + v1) + (v2 + v3);
  };
  const auto col_sum = [](float v) {
    const float v1 = __shfl_xor_sync(0xffffffffu, v, 4), v2 = __shfl_xor_sync(0xffffffffu, v, 8),
                v3 = __shfl_xor_sync(0xffffffffu, v, 12);
    return (v + v1) + (v2 + v3);
  };
  float mx = fmaxf(c, __shfl_xor_sync(0xffffffffu, c, 1));
  mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
  // Each normalisation multiplies by a correctly rounded reciprocal (spec §3.4 allows it, within
  // ~1 fp32 ulp of the division): a shorter dependent chain than IEEE division, which the owner's
  // 20-step Sinkhorn runs 40 times per token.
  c = expf(c - mx);
  c = c * rcp_rn(row_sum(c)) + s.hc_sinkhorn_eps;
  c = c * rcp_rn(col_sum(c) + s.hc_sinkhorn_eps);
  for (int it = 1; it < s.sinkhorn_repeat; ++it) {
    c = c * rcp_rn(row_sum(c) + s.hc_sinkhorn_eps);
    c = c * rcp_rn(col_sum(c) + s.hc_sinkhorn_eps);
  }
  if (valid && lane < kN) p.post_mix[t * kN + lane] = post;
  if (valid && lane < kN * kN) p.comb_mix[t * kN * kN + lane] = c;
  if constexpr (is_delayed(M)) {
    if (valid && lane < kN) da.new_pre[t * kN + lane] = pre_weight(p, k, sums, r, lane);
  }
}

// Gram layout in a token's partials, after the projections: G00 G11 G22 G33 G01 G02 G03 G12 G13 G23.
__host__ __device__ constexpr int gram_i(int q) { return q < 4 ? q : q < 7 ? 0 : q < 9 ? 1 : 2; }
__host__ __device__ constexpr int gram_k(int q) { return q < 4 ? q : q < 7 ? q - 3 : q < 9 ? q - 5 : 3; }

template <Mode M, bool kNorm>
__device__ __forceinline__ void owner_loop(const MhcFusedParams& p, const DelayedArgs& da, Shared<M, kNorm>& sh,
                                           const TileMap& tm, int csize, int rank,
                                           int owner, int owners, int64_t first_tile, int64_t tile_step,
                                           int ntiles) {
  constexpr int kP = parts_padded<M, kNorm>(), kRows = proj_rows<M>();
  const MhcPreParams& pp = p.pre;
  const int lane = threadIdx.x % 32;
  const int owned = kTile / csize;  // tokens of a tile this CTA owns
  float* sums = sh.owner_sums[owner];
  const OwnerConsts consts = owner_consts<M>(pp, lane);
  for (int j = owner; j < ntiles; j += owners) {
    const int s = j % kRing;
    const int64_t tile = first_tile + j * tile_step;
    float carried[kTile / 8];  // owned <= 2 (clusters of 16 or 8)
#pragma unroll
    for (int local = 0; local < kTile / 8; ++local)
      carried[local] = local < owned ? carried_weight<M>(pp, da, tm.token(tile, local * csize + rank), lane) : 0.0f;
    mbar_wait<2000>(&sh.partials_full[s], (j / kRing) & 1);
    for (int local = 0; local < owned; ++local) {
      const int tok = local * csize + rank;
      for (int row = lane; row < kP; row += 32) {
        float v = 0.0f;
#pragma unroll 8  // csize is 16 or 8: the loads of a chunk issue together, the adds keep rank order
        for (int q = 0; q < csize; ++q) v += sh.partials[s][local * csize + q][row];
        sums[row] = v;
      }
      __syncwarp();
      const float sum_sq = kNorm ? (sums[kRows] + sums[kRows + 1]) + (sums[kRows + 2] + sums[kRows + 3])
                                 : sums[kRows];
      const int64_t t = tm.token(tile, tok);
      const float w = owner_weight<M>(pp, consts, local == 0 ? carried[0] : carried[1], sums, sum_sq, lane);
      float pre[kN];
#pragma unroll
      for (int i = 0; i < kN; ++i) pre[i] = __shfl_sync(0xffffffffu, w, i);
      float norm_scale = 1.0f;
      if constexpr (kNorm) {  // sum_d y_d^2 = pre^T Gx pre
        float ss = 0.0f;
#pragma unroll
        for (int q = 0; q < kGram; ++q) {
          ss += (q < kN ? 1.0f : 2.0f) * pre[gram_i(q)] * pre[gram_k(q)] * sums[kRows + q];
        }
        norm_scale = rms_factor(ss, pp.hidden, pp.scalars.norm_eps);
      }
      if (lane < csize) {
        const uint32_t bar = cluster_addr(&sh.weights_full[s], uint32_t(lane));
        const uint32_t dst = cluster_addr(&sh.weights[s][tok][0], uint32_t(lane));
        st_async(dst, make_float4(pre[0], pre[1], pre[2], pre[3]), bar);
        st_async(dst + 16, make_float4(norm_scale, 0.0f, 0.0f, 0.0f), bar);
      }
      // The collapse has its weights; post, comb (the Sinkhorn) and new_pre follow off its path.
      if constexpr (!is_head(M)) owner_mixes<M>(pp, da, consts, sums, sum_sq, t, lane);
      __syncwarp();  // sums is rewritten by the next token
    }
    // Next phase of this slot: its bytes come only after every CTA collapsed this tile.
    if (lane == 0) mbar_arm(&sh.partials_full[s], uint32_t(kTile * kP * sizeof(float)));
  }
}

// fn's bf16 parts of two elements a, b: w[p] holds part p of a (low half) and b (high half);
// hi + mid + lo = f, each remainder exact in fp32. One cvt.rn per pair and part, without pack_bf16x2's
// NaN fix-ups: the parts are to_bf16's bits for every non-NaN value (benchmarks/split_bits.cu, all 2^32
// patterns); a NaN in fn gives NaN parts either way and the mma's NaN result does not carry their
// payload (the same output bits with NaNs in fn, benchmarks/NOTES.md session 17). The fix-ups were half
// of the staging's instructions and sat on the decode engine's chain: mhc_pre 10.8 -> 8.6 us at T = 1.
__device__ __forceinline__ void split3_bf16x2(float a, float b, uint32_t (&w)[3]) {
#pragma unroll
  for (int p = 0; p < 3; ++p) {
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(w[p]) : "f"(b), "f"(a));
    a -= __uint_as_float(w[p] << 16);
    b -= __uint_as_float(w[p] & 0xffff0000u);
  }
}

// The three parts of 8 consecutive fp32 fn values (null: a zero row) as the staged kBf16 slice
// holds them: part p's 8 bf16 in one 16-byte word, element e at bf16 index e.
__device__ __forceinline__ void split_bf16_parts(const float* src, uint4 (&parts)[3]) {
  float f[8] = {};
  if (src != nullptr) {
    const float4 lo4 = __ldg(reinterpret_cast<const float4*>(src));
    const float4 hi4 = __ldg(reinterpret_cast<const float4*>(src + 4));
    f[0] = lo4.x, f[1] = lo4.y, f[2] = lo4.z, f[3] = lo4.w, f[4] = hi4.x, f[5] = hi4.y, f[6] = hi4.z, f[7] = hi4.w;
  }
  uint32_t w[4][3];
#pragma unroll
  for (int j = 0; j < 4; ++j) split3_bf16x2(f[2 * j], f[2 * j + 1], w[j]);
#pragma unroll
  for (int p = 0; p < 3; ++p) parts[p] = make_uint4(w[0][p], w[1][p], w[2][p], w[3][p]);
}

// Staged fn slice: rows m < 8 * ceil(rows / 8) (zeros past the projections) of 4 * D/C values,
// padded so that the 8 rows a warp's lane groups read in one 16-byte load hit distinct banks.
template <Engine E>
__host__ __device__ constexpr int staged_row_stride(int d_slice) {
  return kN * d_slice + (E == Engine::kBf16 ? kBf16Pad : 4);
}
template <Mode M, Engine E>
__host__ __device__ constexpr size_t staged_bytes(int d_slice) {
  constexpr int kRowsPad = (proj_rows<M>() + 7) / 8 * 8;  // the bf16 engine reads the zero rows
  return E == Engine::kGlobal || E == Engine::kGlobalBf16 ? 0
         : E == Engine::kTf32 ? size_t(proj_rows<M>()) * staged_row_stride<E>(d_slice) * sizeof(float)
                              : 3 * size_t(kRowsPad) * staged_row_stride<E>(d_slice) * sizeof(bf16);
}

// tile_squares' tensor-core Gram matrix (kNorm) for the 8 tokens g of a warp, from each token's own words w[i] (chunk c
// of stream i, the projection's lane layout) in 12 mma instead of 20: A's rows g and g + 8 carry streams i and i2 of
// token g and B's column g stream k, so D[g][g] and D[g + 8][g] are entries (i, k) and (i2, k), each the chain of
// tile_squares' entry (the same products in the same k order, from zero over the two k16 steps; an element's bits
// depend on its row and column values only, not on their position: checked bitwise on the H100, session 26). The
// lane with c == g / 2 holds token g's entries. At D = 7168 the TMA kernel's projection (two calls a 16-token block:
// 24 mma against tile_squares' 40) and the fused seam's post warps (their own tokens) sum the Gram with it; the
// pipeline kernel keeps tile_squares (with gram_own its calls at D = 7168 measured 0.4-1.1 us slower in decode and
// the seam 50 -> 61 us at 512 tokens, session 26).
__device__ __forceinline__ void gram_own(const uint4 (&w)[kN], int g, float (&sq)[kGram]) {
  // Units of (entry on row g, entry on row g + 8 or -1, k); entries q are (gram_i(q), gram_k(q)).
  constexpr int kUnits = 6, q1[kUnits] = {0, 1, 2, 7, 3, 8}, q2[kUnits] = {-1, 4, 5, -1, 6, 9};
  static_assert(gram_k(1) == gram_k(4) && gram_k(2) == gram_k(5) && gram_k(3) == gram_k(6) && gram_k(8) == gram_k(9),
                "a unit's two entries share k");
#pragma unroll
  for (int u = 0; u < kUnits; ++u) {
    const uint4 &a0 = w[gram_i(q1[u])], &a1 = w[q2[u] < 0 ? gram_i(q1[u]) : gram_i(q2[u])], &b = w[gram_k(q1[u])];
    float acc[4] = {};
    if (q2[u] < 0) {
      // Row g + 8's result unused: whatever the registers hold there (row g's bits depend on row g's words only, the
      // property above), so that only a0's words are moved into the fragment (session 33: 16 moves a stage fewer on
      // the D = 7168 projection's Gram warps).
      uint32_t j[4];
      asm volatile("" : "=r"(j[0]), "=r"(j[1]), "=r"(j[2]), "=r"(j[3]));
      mma_bf16(acc, a0.x, j[0], a0.y, j[1], b.x, b.y);
      mma_bf16(acc, a0.z, j[2], a0.w, j[3], b.z, b.w);
    } else {
      mma_bf16(acc, a0.x, a1.x, a0.y, a1.y, b.x, b.y);
      mma_bf16(acc, a0.z, a1.z, a0.w, a1.w, b.z, b.w);
    }
    sq[q1[u]] = (g & 1) ? acc[1] : acc[0];
    if (q2[u] >= 0) sq[q2[u]] = (g & 1) ? acc[3] : acc[2];
  }
}

// Sum of squares / Gram entry G_ik of tokens g and g + 8 over the lane quad's 32 d (sq[h][q]: token
// g + 8 h, entry q; the lane with c == g / 2 holds it, kFma: every lane of the quad). Two forms, one
// per arithmetic family, each used by every kernel of that family:
//  - kFma (the bf16 engines and the TMA kernel, D = 4096): each lane's fp32 FMA chain over its 8 d
//    in d order, then the quad's butterfly sum ((a0 + a1) + (a2 + a3) on every lane, up to
//    commutation). On CUDA cores so that the TMA kernel runs it beside its wgmma chain instead of
//    queueing mma.sync behind it; it also holds fewer registers than the mma form in the bf16
//    engines (their decode engine's spill fell from 80 to 4 bytes).
//  - otherwise (the tf32 engines, D != 4096) on tensor cores: the diagonal of X_i X_k^T with X_k's
//    loaded words as the B operand (B's column n = token n), each entry's chain from zero. The FMA
//    form spilled there (the tf32 projection keeps more registers live).
template <bool kNorm, bool kFma>
__device__ __forceinline__ void tile_squares(const uint4 (&r)[2][kN], int g, float (&sq)[2][kNorm ? kGram : 1]) {
  constexpr int kSq = kNorm ? kGram : 1;
  if constexpr (kFma) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      float s[kSq] = {};
#pragma unroll
      for (int e = 0; e < 8; ++e) {  // d outer: 4 live values, not 32
        float x[kN];
#pragma unroll
        for (int i = 0; i < kN; ++i) x[i] = f32_of(r[h][i], e);
        if constexpr (kNorm) {
#pragma unroll
          for (int q = 0; q < kSq; ++q) s[q] = fmaf(x[gram_i(q)], x[gram_k(q)], s[q]);
        } else {
#pragma unroll
          for (int i = 0; i < kN; ++i) s[0] = fmaf(x[i], x[i], s[0]);  // positive terms: one chain
        }
      }
#pragma unroll
      for (int q = 0; q < kSq; ++q) {
        const float v = s[q] + __shfl_xor_sync(0xffffffffu, s[q], 1);
        sq[h][q] = v + __shfl_xor_sync(0xffffffffu, v, 2);
      }
    }
  } else {
    const auto gram = [&](float (&lo)[4], float (&hi)[4], int i, int k) {
      const uint4 &a0 = r[0][i], &a1 = r[1][i], &b0 = r[0][k], &b1 = r[1][k];
      mma_bf16(lo, a0.x, a1.x, a0.y, a1.y, b0.x, b0.y);
      mma_bf16(lo, a0.z, a1.z, a0.w, a1.w, b0.z, b0.w);
      mma_bf16(hi, a0.x, a1.x, a0.y, a1.y, b1.x, b1.y);
      mma_bf16(hi, a0.z, a1.z, a0.w, a1.w, b1.z, b1.w);
    };
#pragma unroll
    for (int q = 0; q < kSq; ++q) {
      float lo[4] = {}, hi[4] = {};
      if constexpr (kNorm) {
        gram(lo, hi, gram_i(q), gram_k(q));
      } else {
#pragma unroll
        for (int i = 0; i < kN; ++i) gram(lo, hi, i, i);  // positive terms: one chain is exact enough
      }
      sq[0][q] = (g & 1) ? lo[1] : lo[0];
      sq[1][q] = (g & 1) ? hi[3] : hi[2];
    }
  }
}

// 8 consecutive d of one token: y = sum_i pre_i x_i, or stream 0 alone (identity: the delayed op
// without pre_mix, bitwise, whatever the other streams hold), then the fused RMSNorm's rounding and
// scale. The TMA kernel's collapse calls it too: one expression, the same bits.
template <bool kNorm>
__device__ __forceinline__ void collapse8(const uint4 (&r)[kN], float4 pre, float norm_scale, const float (&wv)[8],
                                          bool identity, float (&out)[8]) {
#pragma unroll
  for (int e = 0; e < 8; ++e)
    out[e] = identity ? f32_of(r[0], e)
                      : pre.x * f32_of(r[0], e) + pre.y * f32_of(r[1], e) + pre.z * f32_of(r[2], e) +
                            pre.w * f32_of(r[3], e);
  if constexpr (kNorm) {
    round_bf16x8(out);
#pragma unroll
    for (int e = 0; e < 8; ++e) out[e] = out[e] * norm_scale * wv[e];
  }
}

// kEarly: the collapse's re-read of tile j - kLag is issued before the projection of tile j, so its
// L2 latency hides behind it (needs the registers of a 12-warp CTA). The warp projects row blocks
// [kNt0, kNt1); kFirst: the stage's first warp, which also sums the squares, stores the fused op's
// residual_out and collapses (kSplitWarps: two warps a stage; else one with every row block).
template <Mode M, bool kNorm, Engine E, bool kEarly, int kNt0, int kNt1, bool kFirst>
__device__ __forceinline__ void worker_loop(const MhcFusedParams& p, Shared<M, kNorm>& sh, const float* fn_s,
                                            const TileMap& tm, int csize, int rank, int workers, int stages,
                                            int64_t first_tile, int64_t tile_step, int ntiles, bool identity) {
  constexpr int kRows = proj_rows<M>(), kNTiles = (kRows + 7) / 8, kP = parts_padded<M, kNorm>();
  const MhcPreParams& pp = p.pre;
  const int64_t hidden = pp.hidden, k_total = int64_t(kN) * hidden;
  const int d_slice = E == Engine::kBf16 ? kBf16Slice : int(hidden / csize);
  const int fn_stride = staged_row_stride<E>(d_slice);
  const int fn_part = kNTiles * 8 * fn_stride;  // kBf16: elements between the hi, mid and lo parts
  const int lane = threadIdx.x % 32, g = lane / 4, c = lane % 4;
  constexpr bool kAllRows = kNt0 == 0 && kNt1 == kNTiles;  // one warp a stage
  const int warp = kAllRows ? int(threadIdx.x / 32) : int(threadIdx.x / 32) % stages;  // the stage: 32 d
  const int64_t d = int64_t(rank) * d_slice + warp * kWarpD + 8 * c;  // the lane's 8 d
  const bf16* collapse_src = has_post(M) ? p.post.out : pp.residual;

  // The engines that stage fn prefetch the next tile. The decode bf16 engine (a tile a cluster, fn from
  // L2) loads its tile when it starts it, which keeps a second tile's registers free (mhc_pre with two
  // warps a stage fits 96 registers; hc_head 160 -> 132 and 0.2-0.5 us a call); the fused ops keep the
  // prefetch (mhc_post_hc_head measured 0.2-0.3 us slower without it).
  constexpr bool kPrefetch = E != Engine::kGlobalBf16 || has_post(M);
  TileLoad<M> next;
  if (kPrefetch && ntiles > 0) load_tile<M>(p, tm, first_tile, d, g, next);
  for (int j = 0; j < ntiles + kLag; ++j) {
    const int jc = j - kLag;
    uint4 r[2][kN];
    if (kEarly && kFirst && jc >= 0)
      load_streams<true>(collapse_src, tm, hidden, first_tile + jc * tile_step, d, g, r);
    if (j < ntiles) {
      const int s = j % kRing;
      const int64_t tile = first_tile + j * tile_step;
      TileLoad<M> cur;
      if constexpr (kPrefetch) {
        cur = next;
        if (j + 1 < ntiles) load_tile<M>(p, tm, tile + tile_step, d, g, next);
      } else {
        load_tile<M>(p, tm, tile, d, g, cur);
      }
      static_assert(kFirst || !has_post(M), "a fused op's stage is one warp: it applies and stores the post");
      apply_post<M>(p, tm, tile, d, g, cur);

      // 1. Projection on tensor cores, then the sum of squares (or the Gram matrix). Tensor cores
      // truncate when they accumulate, so chains start from zero for every warp's slice and are added
      // with rounded fp32 adds: the truncation never compounds along k beyond 8 k16 steps.
      float acc[kNTiles][4] = {};
      if constexpr (bf16_parts(E)) {
        // One chain per fn part (hi, mid, lo) and row tile over the 4 streams x 2 k16 steps of the
        // warp's 32 d, in (stream, step) order, then (lo + mid) + hi: the chains of the TMA kernel's
        // wgmma m64n72k16 (the parts as column groups), so both kernels give a token the same bits.
        // k order within the lane's 8 d: k16 step u takes d 4u..4u+3 (as a0/a2 of token g and a1/a3 of
        // token g + 8, the words of the loaded chunk) and the same d of fn's row m.
        float chain[3][kNTiles][4] = {};
#pragma unroll
        for (int i = 0; i < kN; ++i) {
          const uint32_t* x0 = &cur.r[0][i].x;
          const uint32_t* x1 = &cur.r[1][i].x;
#pragma unroll
          for (int nt = kNt0; nt < kNt1; ++nt) {
            const int m = nt * 8 + g;
            uint4 parts[3];
            if constexpr (E == Engine::kBf16) {
              const bf16* row =
                  reinterpret_cast<const bf16*>(fn_s) + m * fn_stride + i * d_slice + warp * kWarpD + 8 * c;
#pragma unroll
              for (int part = 0; part < 3; ++part) parts[part] = *reinterpret_cast<const uint4*>(row + part * fn_part);
            } else {
              split_bf16_parts(m < kRows ? pp.fn + m * k_total + i * hidden + d : nullptr, parts);
            }
#pragma unroll
            for (int part = 0; part < 3; ++part) {
              const uint4& b = parts[part];
              mma_bf16(chain[part][nt], x0[0], x1[0], x0[1], x1[1], b.x, b.y);
              mma_bf16(chain[part][nt], x0[2], x1[2], x0[3], x1[3], b.z, b.w);
            }
          }
        }
#pragma unroll
        for (int nt = kNt0; nt < kNt1; ++nt)
#pragma unroll
          for (int q = 0; q < 4; ++q) acc[nt][q] = (chain[2][nt][q] + chain[1][nt][q]) + chain[0][nt][q];
      } else {
#pragma unroll
        for (int i = 0; i < kN; ++i) {  // one chain per stream (32 k, hi and lo parts), added in stream order
          float chain[kNTiles][4] = {};
#pragma unroll
          for (int nt = 0; nt < kNTiles; ++nt) {
            const int m = nt * 8 + g;
            float f[8];
            if (m < kRows) {
              const float* src = E == Engine::kTf32 ? fn_s + m * fn_stride + i * d_slice + warp * kWarpD + 8 * c
                                                    : pp.fn + m * k_total + i * hidden + d;
              const float4 lo4 = E == Engine::kTf32 ? *reinterpret_cast<const float4*>(src)
                                                    : __ldg(reinterpret_cast<const float4*>(src));
              const float4 hi4 = E == Engine::kTf32 ? *reinterpret_cast<const float4*>(src + 4)
                                                    : __ldg(reinterpret_cast<const float4*>(src + 4));
              f[0] = lo4.x, f[1] = lo4.y, f[2] = lo4.z, f[3] = lo4.w, f[4] = hi4.x, f[5] = hi4.y, f[6] = hi4.z,
              f[7] = hi4.w;
            } else {
#pragma unroll
              for (int e = 0; e < 8; ++e) f[e] = 0.0f;
            }
#pragma unroll
            for (int jj = 0; jj < 4; ++jj) {
              uint32_t b0h, b0l, b1h, b1l;
              split_tf32(f[2 * jj], b0h, b0l);
              split_tf32(f[2 * jj + 1], b1h, b1l);
              const uint32_t a0 = tf32_of(cur.r[0][i], 2 * jj), a1 = tf32_of(cur.r[1][i], 2 * jj);
              const uint32_t a2 = tf32_of(cur.r[0][i], 2 * jj + 1), a3 = tf32_of(cur.r[1][i], 2 * jj + 1);
              mma_tf32(chain[nt], a0, a1, a2, a3, b0h, b1h);
              mma_tf32(chain[nt], a0, a1, a2, a3, b0l, b1l);
            }
#pragma unroll
            for (int q = 0; q < 4; ++q) acc[nt][q] += chain[nt][q];
          }
        }
      }
      constexpr int kSq = kNorm ? kGram : 1;
      float sq[2][kSq];
      if constexpr (kFirst) tile_squares<kNorm, bf16_parts(E)>(cur.r, g, sq);

      // 2. Lanes -> warp partials -> CTA partial of each token -> the token's owner.
#pragma unroll
      for (int nt = kNt0; nt < kNt1; ++nt)
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          const int row = nt * 8 + 2 * c + (q & 1), tok = g + 8 * (q >> 1);
          if (row < kRows) sh.warp_part[warp][tok][row] = acc[nt][q];
        }
      if (kFirst && c == (g >> 1)) {
#pragma unroll
        for (int h = 0; h < 2; ++h)
#pragma unroll
          for (int q = 0; q < kSq; ++q) sh.warp_part[warp][g + 8 * h][kRows + q] = sq[h][q];
      }
      workers_sync(workers);
      // CTA partial: one float4 of one token per worker thread, summed over the stages in order.
      for (int o = int(threadIdx.x); o < kTile * (kP / 4); o += workers * 32) {
        const int tok = o / (kP / 4), col = o % (kP / 4);
        float4 v = *reinterpret_cast<const float4*>(&sh.warp_part[0][tok][4 * col]);
#pragma unroll 4
        for (int w = 1; w < stages; ++w) {
          const float4 u = *reinterpret_cast<const float4*>(&sh.warp_part[w][tok][4 * col]);
          v.x += u.x, v.y += u.y, v.z += u.z, v.w += u.w;
        }
        const uint32_t owner = uint32_t(tok % csize);
        const uint32_t dst = cluster_addr(&sh.partials[s][(tok / csize) * csize + rank][4 * col], owner);
        st_async(dst, v, cluster_addr(&sh.partials_full[s], owner));
      }
      workers_sync(workers);  // warp_part is rewritten by the next tile
    }

    // 3. Collapse of tile j - kLag from L2 with the weights its owners pushed.
    if (kFirst && jc >= 0) {
      const int s = jc % kRing;
      const int64_t tile = first_tile + jc * tile_step;
      if (!kEarly) load_streams<true>(collapse_src, tm, hidden, tile, d, g, r);
      float wv[8];  // the norm's weights, in flight during the wait
      if (kNorm) load_bf16x8(pp.norm_weight + d, wv);
      mbar_wait(&sh.weights_full[s], (jc / kRing) & 1);
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int tok = g + 8 * h;
        const int64_t t = tm.token(tile, tok);
        const float4 pre = *reinterpret_cast<const float4*>(&sh.weights[s][tok][0]);
        const float norm_scale = sh.weights[s][tok][4];
        float out[8];
        collapse8<kNorm>(r[h], pre, norm_scale, wv, identity, out);
        if (t < pp.tokens) store_bf16x8(pp.layer_input + t * hidden + d, out);
      }
      // Re-arm after this thread's own wait: the next phase's bytes come only after this CTA
      // pushes tile jc + kRing, which every worker reaches only past this point.
      if (threadIdx.x == 0) mbar_arm(&sh.weights_full[s], uint32_t(kTile * 8 * sizeof(float)));
    }
  }
}

// Early collapse loads need the 12-warp CTA's registers; with the bf16 engine they only pay off for
// hc_head (4 projections): for the 24-row ops they cost spills and measured slower (fused 1525 vs
// 1266 us at T = 16384, D = 4096).
template <Mode M, Engine E, int kWarps>
constexpr bool early_collapse_loads() {
  return kWarps == kFewWarps && (!bf16_parts(E) || M == Mode::kHead);
}

template <Mode M, bool kNorm, Engine E, int kWarps>
__global__ void __launch_bounds__(kWarps * 32, 1) mhc_pipeline_kernel(MhcFusedParams p, DelayedArgs da,
                                                                       int workers, int tile_shift) {
  constexpr int kRows = proj_rows<M>(), kP = parts_padded<M, kNorm>();
  extern __shared__ __align__(16) unsigned char smem_raw[];
  Shared<M, kNorm>& sh = *reinterpret_cast<Shared<M, kNorm>*>(smem_raw);
  float* fn_s = reinterpret_cast<float*>(smem_raw + sizeof(Shared<M, kNorm>));

  cg::cluster_group cluster = cg::this_cluster();
  const int csize = int(cluster.num_blocks()), rank = int(cluster.block_rank());
  const MhcPreParams& pp = p.pre;
  const int64_t hidden = pp.hidden, k_total = int64_t(kN) * hidden;
  const int d_slice = int(hidden / csize), fn_stride = staged_row_stride<E>(d_slice);
  const int warp = threadIdx.x / 32, owners = blockDim.x / 32 - workers;

  // The barriers and the cluster barrier that publishes them touch no global memory: they run
  // while the previous kernel finishes (~0.9 us of a decode call's chain).
  pdl_trigger();
  if (threadIdx.x == 0) {
    for (int s = 0; s < kRing; ++s) {
      mbar_init(&sh.partials_full[s]);
      mbar_init(&sh.weights_full[s]);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    for (int s = 0; s < kRing; ++s) {
      mbar_arm(&sh.partials_full[s], uint32_t(kTile * kP * sizeof(float)));
      mbar_arm(&sh.weights_full[s], uint32_t(kTile * 8 * sizeof(float)));
    }
  }
  // Every CTA's barriers are initialised before anyone pushes. The inits' fence publishes them to the
  // cluster and nothing else before here needs ordering (the arms are mbarrier operations on the same
  // objects), so the arrive is relaxed: no memory barrier on every warp's path.
  asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
  // This CTA's fn slice, once: rows x (4 streams x d_slice), from fn[m][i * D + rank * d_slice + dl].
  // fn is a weight, which no kernel before this one writes: staged before the PDL wait (cuda_common.cuh).
  constexpr int kRowsPad = (kRows + 7) / 8 * 8;
  const int per_row = kN * d_slice;
  if constexpr (E == Engine::kTf32) {
    for (int q = threadIdx.x; q < kRows * per_row / 4; q += blockDim.x) {
      const int m = q / (per_row / 4), rest = 4 * (q % (per_row / 4)), i = rest / d_slice, dl = rest % d_slice;
      const float4 v = __ldg(reinterpret_cast<const float4*>(pp.fn + m * k_total + i * hidden +
                                                            int64_t(rank) * d_slice + dl));
      *reinterpret_cast<float4*>(fn_s + m * fn_stride + rest) = v;
    }
  } else if constexpr (E == Engine::kBf16) {
    // 8 consecutive values an item, the loads of kBatch items in flight together: staging is on the
    // path of every batch that runs it (one dependent L2 load a value took ~25 us at D = 4096).
    bf16* fb = reinterpret_cast<bf16*>(fn_s);
    const int part = kRowsPad * fn_stride, items = kRowsPad * per_row / 8;
    constexpr int kBatch = 4;
    for (int q0 = threadIdx.x; q0 < items; q0 += blockDim.x * kBatch) {
      float4 v[kBatch][2];
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        const int q = q0 + b * blockDim.x, m = q / (per_row / 8), rest = 8 * (q % (per_row / 8));
        const int i = rest / d_slice, dl = rest % d_slice;
        v[b][0] = v[b][1] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (q < items && m < kRows) {
          const float4* src =
              reinterpret_cast<const float4*>(pp.fn + m * k_total + i * hidden + int64_t(rank) * d_slice + dl);
          v[b][0] = __ldg(src);
          v[b][1] = __ldg(src + 1);
        }
      }
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        const int q = q0 + b * blockDim.x, m = q / (per_row / 8), rest = 8 * (q % (per_row / 8));
        if (q >= items) break;
        uint32_t w[4][3];  // the three parts carry 24+ bits of fn
        split3_bf16x2(v[b][0].x, v[b][0].y, w[0]);
        split3_bf16x2(v[b][0].z, v[b][0].w, w[1]);
        split3_bf16x2(v[b][1].x, v[b][1].y, w[2]);
        split3_bf16x2(v[b][1].z, v[b][1].w, w[3]);
#pragma unroll
        for (int p3 = 0; p3 < 3; ++p3)
          *reinterpret_cast<uint4*>(fb + p3 * part + m * fn_stride + rest) = make_uint4(w[0][p3], w[1][p3], w[2][p3], w[3][p3]);
      }
    }
  }
  pdl_wait();  // before the first access to what the previous kernel wrote
  if constexpr (E == Engine::kTf32 || E == Engine::kBf16) __syncthreads();  // the staged slice

  const TileMap tm{pp.tokens, tile_shift};
  const int64_t tiles = tm.tiles();
  const int64_t cluster_id = blockIdx.x / csize, clusters = gridDim.x / csize;
  const int ntiles = cluster_id < tiles ? int((tiles - cluster_id + clusters - 1) / clusters) : 0;
  constexpr int kNTiles = (kRows + 7) / 8;
  constexpr bool kEarly = early_collapse_loads<M, E, kWarps>();
  const bool identity = is_delayed(M) && da.pre_mix == nullptr;
  if constexpr (kWarps == kSplitWarps) {
    static_assert(kNTiles == 3, "two warps a stage: row block 0 and the squares, row blocks 1 and 2");
    const int stages = workers / 2;
    if (warp < stages)
      worker_loop<M, kNorm, E, kEarly, 0, 1, true>(p, sh, fn_s, tm, csize, rank, workers, stages, cluster_id, clusters,
                                                     ntiles, identity);
    else if (warp < workers)
      worker_loop<M, kNorm, E, kEarly, 1, 3, false>(p, sh, fn_s, tm, csize, rank, workers, stages, cluster_id, clusters,
                                                      ntiles, identity);
  } else if (warp < workers) {
    worker_loop<M, kNorm, E, kEarly, 0, kNTiles, true>(p, sh, fn_s, tm, csize, rank, workers, workers, cluster_id,
                                                         clusters, ntiles, identity);
  }
  if (warp >= workers)
    owner_loop<M, kNorm>(p, da, sh, tm, csize, rank, warp - workers, owners, cluster_id, clusters, ntiles);
  // No exit barrier: the only accesses to a CTA's shared memory from other CTAs are the st.async
  // pushes into its partial and weight slots, and the CTA itself waited for every byte of them (the
  // slots' mbarriers) before it got here. The barrier cost every decode call ~0.7 us of release
  // fences and waiting for the slowest CTA.
}

// Picks the cluster size for D (0: the fast path does not apply).
inline int cluster_size_for(int64_t hidden) {
  if (hidden % (16 * kWarpD) == 0 && hidden / 16 / kWarpD <= kMaxWorkers) return 16;
  if (hidden % (8 * kWarpD) == 0 && hidden / 8 / kWarpD <= kMaxWorkers) return 8;
  return 0;
}

// The shapes whose prefill engine stages fn as bf16 parts (D/C = 256: D = 4096 at n = 4).
inline bool stages_bf16_parts(int hc_mult, int64_t hidden) {
  const int csize = hc_mult == kN ? cluster_size_for(hidden) : 0;
  return csize != 0 && hidden / csize == kBf16Slice;
}

// The fused ops (kFused, kFusedDelayed; kFusedHead at D = 4096) run here below this many tokens; from
// there on mhc_post then the pre or head op's own kernel measured faster (mhc_fused_post_pre.cu,
// mhc_post_hc_head.cu), with the same bits per token: at T = 128-1023 by 2-17 % (at 64 the fused
// kernel is 0.3-0.8 us faster; benchmarks/NOTES.md, session 2026-11-26 (12)). Where fn's bf16 parts are
// staged (D = 4096) from 113 tokens: past 7 tiles of 16 tokens, more than the 7 clusters of 16 CTAs that fit
// at once, the fused kernel takes a second round (H200, session 30: the seam 8.5 us at 112 tokens, 13.2 at 120,
// composed 10.3; the fused post + pre 12.7 / 17.2, composed 15.2); at D = 7168 the composed fused op was slower
// at 127 tokens (27.3 against 24.8 us).
inline int64_t fused_compose_min_tokens(int hc_mult, int64_t hidden) {
  return stages_bf16_parts(hc_mult, hidden) ? 7 * kTile + 1 : 128;
}

// hc_head takes the final norm only in mhc_post_hc_head's composed path, which runs where fn is staged
// as bf16 parts: its fp32-fn kernels with the norm are never launched, so they are not instantiated.
template <Mode M, bool kNorm>
constexpr bool bf16_parts_only() {
  return M == Mode::kHead && kNorm;
}
template <Mode M, bool kNorm, Engine E, int kWarps>
constexpr auto pipeline_kernel() {
  if constexpr (bf16_parts_only<M, kNorm>() && !bf16_parts(E)) {
    return static_cast<decltype(&mhc_pipeline_kernel<M, kNorm, Engine::kBf16, kFewWarps>)>(nullptr);
  } else {
    return &mhc_pipeline_kernel<M, kNorm, E, kWarps>;
  }
}

// log2 of the tokens a decode tile holds (TileMap): the fewest, 4 or 8, that still give every cluster
// one tile at most, so that a batch of a few tokens spreads over more clusters (GPCs); 16 otherwise.
inline int decode_tile_shift(int64_t tokens, int64_t resident) {
  for (int shift = 2; shift < kTileShift; ++shift)
    if (TileMap{tokens, shift}.tiles() <= resident) return shift;
  return kTileShift;
}

template <Mode M, bool kNorm>
int launch_variant(const MhcFusedParams& p, const DelayedArgs& da, int csize, cudaStream_t stream) {
  const MhcPreParams& pp = p.pre;
  const int d_slice = int(pp.hidden / csize);
  const int stages = d_slice / kWarpD;                  // one worker warp a stage
  const int owners = stages <= kMaxWarps - 4 ? 4 : 2;  // divides kRing
  const bool few = stages + owners <= kFewWarps;
  const int64_t tiles = TileMap{pp.tokens, kTileShift}.tiles();

  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return int(e);

  LaunchAttrs attr;
  cudaLaunchConfig_t cfg = launch_config(unsigned(csize), 32u, unsigned(csize), 0, stream, attr);
  // Clusters that can be resident at once for a kernel variant, its block and its shared memory (0:
  // cannot launch). The attribute calls and the occupancy query cost host time, so each (device,
  // variant, shape) asks once; the shared-memory opt-in is set to the device maximum so that a
  // later, smaller shape never lowers it under an earlier one.
  auto max_clusters = [&](auto kernel, size_t smem, int threads) {
    static std::mutex mu;
    static std::map<std::tuple<int, const void*, int, int, size_t>, int64_t> resident_cache;
    const std::lock_guard<std::mutex> lock(mu);
    // Keyed by the kernel itself: each instantiation needs its own shared-memory opt-in.
    const auto key = std::make_tuple(device, reinterpret_cast<const void*>(kernel), csize, threads, smem);
    if (const auto it = resident_cache.find(key); it != resident_cache.end()) return it->second;
    int max_smem = 0, n = 0;
    cudaDeviceGetAttribute(&max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, max_smem);
    cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    cfg.blockDim = dim3(unsigned(threads));
    cfg.dynamicSmemBytes = smem;
    if (smem > size_t(max_smem) || cudaOccupancyMaxActiveClusters(&n, kernel, &cfg) != cudaSuccess) n = 0;
    cudaGetLastError();  // a refused query is an answer (0), not an error of this launch
    return resident_cache[key] = int64_t(n);
  };
  auto run = [&](auto kernel, size_t smem, int64_t resident, int workers, int tile_shift) {
    const int64_t tm_tiles = TileMap{pp.tokens, tile_shift}.tiles();
    const int64_t clusters = tm_tiles < resident ? tm_tiles : resident;
    cfg.gridDim = dim3(unsigned(clusters * csize));
    cfg.blockDim = dim3(unsigned((workers + owners) * 32));
    cfg.dynamicSmemBytes = smem;
    return int(cudaLaunchKernelEx(&cfg, kernel, p, da, workers, tile_shift));
  };
  // fn from L2 when every cluster runs at most one tile (decode: staging would be a serial
  // prologue reading the same bytes); staged in shared memory when clusters run several tiles,
  // where it saves re-reading fn (3x the residual's bytes) from L2 for every tile: as bf16 parts
  // where they fit (D/C = 256, the 12-warp CTA), else as fp32.
  using Sh = Shared<M, kNorm>;
  // The decode engine splits fn as the staged engine of this shape does (batch invariance); at D/C =
  // 256 mhc_pre and mhc_pre_delayed run it with two worker warps a stage (kSplitWarps; the fused ops
  // measured slower that way: both warps of a stage apply the post).
  const bool staged_bf16 = stages_bf16_parts(pp.hc_mult, pp.hidden);
  if (bf16_parts_only<M, kNorm>() && !staged_bf16) return -1;
  constexpr bool kSplit = proj_rows<M>() == 24 && !has_post(M);
  const int streamed_workers = staged_bf16 && kSplit ? 2 * stages : stages;
  const auto streamed = staged_bf16 ? pipeline_kernel<M, kNorm, Engine::kGlobalBf16, kSplit ? kSplitWarps : kFewWarps>()
                        : few       ? pipeline_kernel<M, kNorm, Engine::kGlobal, kFewWarps>()
                                    : pipeline_kernel<M, kNorm, Engine::kGlobal, kMaxWarps>();
  const int64_t resident = max_clusters(streamed, sizeof(Sh), (streamed_workers + owners) * 32);
  if (tiles > resident) {
    const auto staged = staged_bf16 ? pipeline_kernel<M, kNorm, Engine::kBf16, kFewWarps>()
                                    : pipeline_kernel<M, kNorm, Engine::kTf32, kMaxWarps>();
    const size_t staged_smem =
        sizeof(Sh) + (staged_bf16 ? staged_bytes<M, Engine::kBf16>(d_slice) : staged_bytes<M, Engine::kTf32>(d_slice));
    const int64_t staged_resident = max_clusters(staged, staged_smem, (stages + owners) * 32);
    if (staged_resident > 0) return run(staged, staged_smem, staged_resident, stages, kTileShift);
  }
  return resident > 0 ? run(streamed, sizeof(Sh), resident, streamed_workers, decode_tile_shift(pp.tokens, resident))
                      : -1;
}

// Launches the fast path; returns -1 when it does not apply (the caller then uses the general
// kernels), else a cudaError_t.
template <Mode M>
int launch(const MhcFusedParams& p, cudaStream_t stream, const DelayedArgs& da = {}) {
  const MhcPreParams& pp = p.pre;
  const int csize = pp.hc_mult == kN ? cluster_size_for(pp.hidden) : 0;
  if (csize == 0) return -1;
  if (pp.tokens == 0) return 0;
  const bf16* residual = has_post(M) ? p.post.residual : pp.residual;
  const bool norm = pp.norm_weight != nullptr;  // hc_head: null, except in mhc_post_hc_head's composed path
  if (!aligned16(residual) || !aligned16(pp.fn) || !aligned16(pp.layer_input) ||
      (norm && !aligned16(pp.norm_weight)) ||
      (has_post(M) && (p.post.out == nullptr || !aligned16(p.post.x) || !aligned16(p.post.out) ||
                       !aligned16(p.post.post_mix) || !aligned16(p.post.comb_mix))) ||
      (is_delayed(M) && da.new_pre == nullptr))
    return -1;  // not this path (e.g. mhc_post_hc_head without streams_out: the collapse re-reads them)
  return norm ? launch_variant<M, true>(p, da, csize, stream) : launch_variant<M, false>(p, da, csize, stream);
}

// hc_head's pipeline (hc_head.cu; -1 where it does not apply). With a norm_weight it also applies
// the final RMSNorm: mhc_post_hc_head's composed path (mhc_post_hc_head.cu).
int launch_head(const MhcPreParams& p, cudaStream_t stream);

}  // namespace pipeline_mhc

}  // namespace dsv4::cuda
