// Prefill of mhc_pre, V4.1's mhc_pre_delayed (streams entry), hc_head (with or without the final norm)
// and mhc_post_hc_head with streams_out (the fused seam) for hc_mult n = 4 and D = 4096 or 7168 on
// sm_90a: the residual streamed by TMA into a shared-memory ring and projected (wgmma at D = 4096,
// mma.sync at 7168), with the pipeline kernel's arithmetic, so that a token gets the same bits here
// and there.
//
// Why: the pipeline kernel (mhc_pipeline_kernel.cuh) keeps the per-tile reduction chain off the
// critical path, but its workers load the residual into registers and run ~1300 instructions per
// 16-token tile (fn operand loads, mma.sync, CTA reduction); at T = 16384 DRAM ran at 27 % of its
// peak (benchmarks/NOTES.md, Little's law: ~4x too many dependent instructions per byte). Here no
// thread touches the residual on its way from HBM to shared memory, fn's operand comes from shared
// memory by descriptor, and one warpgroup projects 64 tokens at a time, 8 wgmma a stage.
//
// Batch invariance (a token's bits may not depend on the batch) allowed one design per D until the
// arithmetic of this kernel was made the pipeline's, term for term: the lane words of the
// pipeline's worker (tokens g, g + 8, d 8c .. 8c + 7 of a 32-d slice) are read from the TMA box
// into registers and feed wgmma as its register A operand, whose fragment is mma.sync m16n8k16's; fn's
// staged B blocks take the pipeline's k order (a k16 step holds d 8c + 4u + {0, 1} at k 2c, 2c + 1
// and d 8c + 4u + {2, 3} at k 2c + 8, 2c + 9) and fn's hi | mid | lo parts as column groups; each
// part's chain runs from zero over the 4 streams x 2 k16 steps of a stage and the parts are folded
// (lo + mid) + hi (wgmma and mma.sync give the same bits for the same chain:
// benchmarks/wgmma_mma_bits.cu); the 8 stages (the pipeline's 8 worker warps) are added in order,
// the 16 ranks in rank order by the owners; the squares or the Gram matrix are the pipeline's own
// code (tile_squares), and so is the collapse (collapse8). So mhc_pre dispatches by T: the pipeline
// for short batches (its decode chain is shorter), this kernel from min_tokens() on.
//
// A cluster of 16 CTAs splits the hidden dim: CTA q owns d in [256 q, 256 q + 256) of all 4
// streams. fn's slice (24 rows x 1024 k) is staged once as bf16 hi / mid / lo parts (hi + mid + lo
// = fn to 2^-27, so the bf16 products are exact in fp32). Tiles are 64 tokens (the wgmma M); a tile
// is 8 stages of 64 tokens x 32 d x 4 streams (16 KB, one 3-D TMA box, 64-byte swizzle).
// D = 7168 (Geo<7168>): CTA q owns 448 d, 14 stages; the prefill engine whose bits a token must get is
// the pipeline's tf32 one (fn split hi + lo per use), so fn's slice is staged as fp32 (24 rows: 172 KB)
// and the projection warps run its mma.sync chains on 16 tokens each (mma_loop_tf32); tiles are 32
// tokens (8 KB stages), so that hc_head's held tile (14 stages) fits a 24-slot ring.
// Warp roles:
//  - warp 0: TMA producer over a ring of ring_stages() stages (lane 0; the other warps stage fn
//    meanwhile);
//  - warps 4-7 (a warpgroup, 16 tokens a warp): per stage the lane words from the box, 8 wgmma
//    m64n72k16 (hc_head: m64n16k16), and while they run the squares (or the 4x4 Gram matrix for the
//    fused RMSNorm) on CUDA cores; per tile each token's CTA partial goes to its owner CTA (token % 16) by st.async;
//  - warps 1-3: owners; the two token pairs of a tile (16 lanes a token) go round them: the 16
//    partials of a token summed in rank order, the pre weights and the norm scale pushed to every
//    CTA first, then the sigmoids and the 16-lane Sinkhorn of comb (the pipeline's owner_mixes);
//  - warps 8-11: the collapse of each tile once its weights arrive, the residual re-read from L2
//    (the next tile's first loads issued before its weights are waited for); for mhc_pre_delayed
//    without the norm, whose collapse waits for nothing, per stage from the ring (ring_collapse);
//    for hc_head, whose fn parts take 32 KB instead of 144, from the ring as well: its 11 slots hold
//    the tile until its weights arrive (held_collapse), so the residual is read from HBM once;
//  - warps 12-15, D = 4096 with the fused norm (not the seam): the Gram matrix of each stage (gram_loop),
//    which beside the wgmma cost the projection warpgroup ~7 % of mhc_pre's time (session 20);
//  - warps 12-15, the fused seam only: x comes beside each stage (a ring of its own), and the post
//    (mhc_post's arithmetic) replaces the stage's streams in the ring before the projection and the
//    collapse read them (held collapse, 10 slots); the new streams are stored as the stash. With the norm
//    they also sum the Gram matrix of the new streams (gram_in_post), so that the projection runs its chains
//    alone (D = 4096: as with the Gram warps, session 21: the seam 1-2 % faster; D = 7168, session 26: the
//    tensor-core Gram had doubled the projection pairs' mma a stage; the same bits).
// Rings of kRing slots carry partials and weights; a CTA pushes tile j's partials only after its
// own collapse of tile j - kRing, which needed every owner's weights of that tile, i.e. every owner
// had consumed that slot. Tile j is loaded only after this CTA collapsed tile j - kLoadLag (not for
// the ring collapse, which holds the ring slots itself), and its boxes are kept in L2 (evict-last),
// so that the collapse's re-read hits L2.
// The projection warpgroup takes registers from the producer/owner warpgroup (setmaxnreg): at the
// launch's 168 a thread its stage spilled with the fused norm.
// The barrier setup and fn's staging run before the programmatic-dependent-launch wait (cuda_common.cuh).
// Measured at D = 7168 (T = 16384, session 2026-11-27 (15)): hc_head 489 us (81 %), the seam with the
// norm 959 (83 %; 886-891, 89 %, since its Gram moved to the post warps, session 2026-11-28 (26)), mhc_pre 797
// (50 %; the pipeline: 1220; 748, 53 %, with gram_own), mhc_pre_delayed without the norm 677 (59 %; 640, 62 %, with
// fn's float4 loads, session 2026-11-28 (28)).
// Measured (H100, D = 4096, T = 16384, benchmarks/NOTES.md): mhc_pre 353 us, 65 % of the floor (the
// pipeline: 655); 332 us (68 %) since the Gram warpgroup (session 20). The projection is not the bound:
// with its wgmma removed the kernel ran 375 us (395 with). The bound is the cycle that the L2 re-read
// imposes: tile j loads only after the collapse of tile j - 2 (TMA and projection ~9 us, owners ~2.5 us,
// collapse ~5-6 us), and a longer lag measured slower (the re-read starts missing L2). The ring collapse
// has no such cycle: mhc_pre_delayed without the norm, 267 us (85 %; its 3-slot ring paces it); nor has the
// held collapse: hc_head 235 us (97 %), the fused seam 521 us with the norm (87 %).
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include "mhc_pipeline_kernel.cuh"

namespace dsv4::cuda {

namespace tma_mhc {

using pipeline_mhc::DelayedArgs;
using pipeline_mhc::Mode;

constexpr int kN = 4;
constexpr int kC = 16;                     // CTAs per cluster
constexpr int kStageD = pipeline_mhc::kWarpD;  // d per stage: one pipeline worker's slice, 64-byte rows
constexpr int kLoadLag = 2;                // tile j loads after this CTA collapsed tile j - kLoadLag
constexpr int kOwnerWarps = 3;
// The kernel's shape for a hidden size. D = 4096: the CTA's 256 d are 8 stages, a tile is 64 tokens (the
// wgmma M), fn's bf16 parts are staged and the projection is wgmma. D = 7168: the CTA's 448 d are 14
// stages, so hc_head's held tile of 64 tokens would take 224 KB; a tile is 32 tokens (112 KB held), and
// the projection is the pipeline's tf32 engine (the prefill engine of this D, whose bits a token must
// get) on mma.sync, a warp 16 tokens (mma_loop_tf32).
template <int kD>
struct Geo {
  static_assert(kD == 4096 || kD == 7168, "the TMA kernel's hidden sizes");
  static constexpr int kHidden = kD;
  static constexpr int kDs = kD / kC;                   // d per CTA
  static constexpr int kSteps = kDs / kStageD;          // stages per tile
  static constexpr bool kTf32 = kD != 4096;             // the tf32 engine's arithmetic (fn staged as fp32)
  static constexpr int kTile = kTf32 ? 32 : 64;         // tokens per tile
  static constexpr int kBoxBytes = kTile * kStageD * 2;  // one stream's box of a stage
  static constexpr int kStageBytes = kN * kBoxBytes;
  static constexpr int kOwned = kTile / kC;             // tokens of a tile each CTA owns
  static constexpr int kRowsPerThread = kTile / 32;     // collapse / post: tokens tid / 4 + 32 h of a stage
};
// The fused norm's Gram matrix on a warpgroup of its own (warps 12-15) where the CTA has room for one (D = 4096,
// no post warpgroup): the projection warpgroup's 4x4 Gram on CUDA cores (~300 instructions a lane and stage beside 8
// wgmma) paced it; with the Gram removed mhc_pre ran 7 % faster (benchmarks/NOTES.md, session 20).
// Without the norm (session 32): the plain sum of squares (tile_squares' one entry, ~100 instructions a lane and stage)
// on that warpgroup too, so that the projection's stage is its wgmma chain alone (310 -> 181 instructions a warp and
// stage; H100: mhc_pre_delayed T = 4096 72 -> 70 us, the rest within noise).
template <Mode M, bool kNorm, int kD>
constexpr bool gram_warps() {
  return kD == 4096 && !pipeline_mhc::has_post(M);
}
// The fused seam with the norm: its post warpgroup sums the Gram matrix of the streams it writes and pushes it to
// the owners, so that the projection runs its chains alone. D = 4096: from the words in registers, in tile_squares'
// quad layout (the FMA form). D = 7168: the tensor-core form (the tf32 engine's) on each post warp's own 8 tokens, two
// entries an mma (gram_own: 12 mma a warp and stage, against the projection pairs' 40 a 16-token block). The same
// bits either way.
template <Mode M, bool kNorm, int kD>
constexpr bool gram_in_post() {
  return kNorm && pipeline_mhc::has_post(M);
}
// Threads: producer + owners, the wgmma warpgroup, the collapse warpgroup, and a fourth that applies the fused
// seam's post (mhc_post_hc_head) or sums the fused norm's Gram matrix or the plain squares (gram_warps).
template <Mode M, bool kNorm, int kD>
constexpr int threads() {
  return pipeline_mhc::has_post(M) || gram_warps<M, kNorm, kD>() ? 512 : 384;
}
// Registers per thread by warpgroup (setmaxnreg): the CTA keeps the launch's 168 a thread (ptxas's
// cap at 384 threads, one CTA per SM); the producer and owners give theirs to the projection, the
// collapse keeps 168. With the post warpgroup the launch has 128 a thread, and the owners give 16 to
// the post. An increase that the CTA's registers cannot cover never returns (a kernel asking for 88 +
// 256 + 168 hung): the sum must stay within the launch's allocation. At D = 7168 the seam's collapse and
// post take one token a stage (kRowsPerThread), and its tf32 projection spilled 120 bytes at 128.
// With the Gram warpgroup (its registers in Regs::post) the launch has 128 a thread; the projection without the
// Gram keeps 128 and the collapse gets back its 168 from the owners and the Gram warps. The seam with the Gram in
// its post warpgroup: the owners and the projection give 24 and 16 to the post's 168 (D = 7168: the projection,
// without the Gram, 16 to the post's 144). Every warpgroup applies its own value, down or up (set_warpgroup_regs).
struct Regs {
  int launch, owner, projection, collapse, post;
};
template <Mode M, bool kNorm, int kD>
constexpr Regs regs() {
  return gram_warps<M, kNorm, kD>()     ? Regs{128, 104, 128, 168, 112}
         : gram_in_post<M, kNorm, kD>() ? (kD == 4096 ? Regs{128, 104, 112, 128, 168} : Regs{128, 112, 152, 104, 144})
         : !pipeline_mhc::has_post(M) ? Regs{168, 104, 232, 168, 0}
         : kD == 4096               ? Regs{128, 112, 128, 128, 144}
                                    : Regs{128, 112, 168, 104, 128};
}
template <Mode M, bool kNorm, int kD>
constexpr bool regs_fit() {
  constexpr Regs r = regs<M, kNorm, kD>();
  return r.owner + r.projection + r.collapse + r.post <= threads<M, kNorm, kD>() / 128 * r.launch;
}
static_assert(regs_fit<Mode::kPre, false, 4096>() && regs_fit<Mode::kPre, true, 4096>() &&
                  regs_fit<Mode::kFusedHead, true, 4096>() && regs_fit<Mode::kFusedHead, true, 7168>() &&
                  regs_fit<Mode::kFusedHead, false, 7168>(),
              "setmaxnreg moves registers within the CTA's launch allocation");
// A warpgroup's registers from the launch's kLaunch to kWant, either way (nothing when equal). regs_fit() holds
// only if every warpgroup applies its own value: a decrease left out made session 21's first gp build hang (the
// post warpgroup's increase waited for registers the projection never gave back).
template <int kWant, int kLaunch>
__device__ __forceinline__ void set_warpgroup_regs() {
  if constexpr (kWant < kLaunch) asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kWant));
  if constexpr (kWant > kLaunch) asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kWant));
}
constexpr int kGram = pipeline_mhc::kGram;
// Projections: 24 (mhc_pre, mhc_pre_delayed) or hc_head's 4.
template <Mode M>
constexpr int rows() {
  return pipeline_mhc::proj_rows<M>();
}
// Columns between fn's hi, mid and lo parts in the wgmma N (column groups of 8): 24 rows take three
// groups each (N = 72); hc_head's 4 rows share one group between hi and mid (columns 0-3, 4-7) and
// lo takes columns 8-11 (N = 16, columns 12-15 zero), so its B blocks are 32 KB and the ring can hold
// a whole tile (held_collapse).
template <Mode M>
constexpr int part_cols() {
  return rows<M>() == 24 ? 24 : 4;
}
template <Mode M>
constexpr int cols() {
  return rows<M>() == 24 ? 72 : 16;
}
template <Mode M>
constexpr int acc_floats() {  // a lane's partials of a stage: 4 per column group of 8 rows
  return 4 * ((rows<M>() + 7) / 8);
}
template <Mode M>
constexpr int b_block_bytes() {  // one k16 x N block of B
  return cols<M>() * 16 * 2;
}
// The tf32 engine's staged fn (D = 7168): fp32 rows of 4 * D/C values, padded as the pipeline's kTf32
// engine pads them (staged_row_stride: its lanes' 16-byte loads hit distinct banks).
template <int kD>
constexpr int fn_stride() {
  return pipeline_mhc::staged_row_stride<pipeline_mhc::Engine::kTf32>(Geo<kD>::kDs);
}
template <Mode M, int kD>
constexpr int fn_bytes() {  // fn's slice in shared memory: the wgmma B blocks, or the tf32 engine's fp32 rows
  return Geo<kD>::kTf32 ? rows<M>() * fn_stride<kD>() * 4 : Geo<kD>::kSteps * kN * 2 * b_block_bytes<M>();
}
// hc_head's collapse reads each tile from the ring once the tile's weights arrived: the ring (11
// stages, 176 KB, at D = 4096; 24 stages of 8 KB at D = 7168) holds the tile being weighed while the
// next one loads, so the residual is read from HBM once and no L2 re-read paces the loads
// (collapse_loop's lag cycle).
template <Mode M>
constexpr bool held_collapse() {
  return pipeline_mhc::is_head(M);
}
// D = 4096 without the norm (mhc_pre, mhc_pre_delayed): 4 TMA stages (64 KB in flight), the room made by
// partial / weight rings of 2 slots (ctrl_ring; 232240 of 232448 bytes). Measured on the H200
// (benchmarks/NOTES.md, session 30): mhc_pre_delayed 1-3 % faster from 4096 tokens, mhc_pre unchanged (the
// norm's modes keep 3 stages).
template <Mode M, bool kNorm, int kD>
constexpr bool deep_ring() {
  return !held_collapse<M>() && !Geo<kD>::kTf32 && !kNorm;
}
// Partial / weight ring slots (see the header): a CTA pushes tile j after its collapse of tile j - ctrl_ring.
template <Mode M, bool kNorm, int kD>
constexpr int ctrl_ring() {
  return deep_ring<M, kNorm, kD>() ? 2 : 3;
}
template <Mode M, bool kNorm, int kD>
constexpr int ring_stages() {  // TMA ring slots (the fused seam's x slots take one or two)
  return deep_ring<M, kNorm, kD>() ? 4
         : !held_collapse<M>()     ? (Geo<kD>::kTf32 ? 4 : 3)
         : Geo<kD>::kTf32     ? (pipeline_mhc::has_post(M) ? 21 : 24)
                              : (pipeline_mhc::has_post(M) ? 10 : 11);
}
// The fused seam's x (the layer output [T, D]): one box of a tile's tokens x 32 d a stage, in a ring of
// its own; the post warpgroup consumes it as soon as it lands. A stage is issued only when an x slot
// is free, so the x ring bounds the stages in flight: 4 x 16 KB at D = 4096, 8 x 8 KB at D = 7168.
template <int kD>
constexpr int x_slots() {
  return Geo<kD>::kTf32 ? 8 : 4;
}
template <Mode M, int kD>
constexpr int x_bytes() {
  return pipeline_mhc::has_post(M) ? x_slots<kD>() * Geo<kD>::kBoxBytes : 0;
}
// Shortest batch this kernel takes; shorter ones run on the pipeline kernel (same bits). Measured on
// the H100 (benchmarks/NOTES.md): mhc_pre / mhc_pre_delayed from 1024 tokens at D = 4096 (session
// 2026-11-26 (2)), from 512 at D = 7168 (T = 768: 70 -> 59 us; 512 is the lowest measured).
// hc_head (with or without the final norm) from 1536 at both D: with programmatic dependent launch
// faster from there at D = 4096 (T = 2048 44-46 -> 39 us; 1024 not measured with PDL), even at D = 7168
// (slower at 1024-1280). mhc_post_hc_head with streams_out (the post applied in the ring) from 1536 at
// D = 4096 (with the norm T = 2048 106-108 -> 81 us), from 1024 at D = 7168 (T = 1024 95 -> 78 us;
// lower not measured).
constexpr int64_t min_tokens(Mode m, int64_t hidden) {
  return m == Mode::kHead ? 1536 : m == Mode::kFusedHead ? (hidden == 4096 ? 1536 : 1024) : (hidden == 4096 ? 1024 : 512);
}

// mhc_pre_delayed without the fused norm: the collapse needs nothing this op computes (the carried
// pre_mix weights it), so it reads each stage from the ring beside the projection, and the residual
// is read once. With the norm, the scale needs the tile's Gram matrix: the re-read collapse stays
// (a ring collapse that stored round_bf16(y) and rescaled it from L2 two tiles later measured slower,
// benchmarks/NOTES.md).
template <Mode M, bool kNorm>
constexpr bool ring_collapse() {
  return M == Mode::kDelayed && !kNorm;
}

template <Mode M, bool kNorm>
constexpr int parts() {  // floats per token and rank: the projections, then sum_sq or the Gram matrix
  return rows<M>() + (kNorm ? kGram : 1);
}
template <Mode M, bool kNorm>
constexpr int parts_stride() {  // even: the pushes are 8-byte pairs
  return (parts<M, kNorm>() + 1) / 2 * 2;
}

template <Mode M, bool kNorm, int kD>
struct alignas(16) Ctrl {
  uint64_t full[ring_stages<M, kNorm, kD>()], empty[ring_stages<M, kNorm, kD>()];
  // The fused seam: the post applied to a stage (the projection and the collapse wait for it); an x
  // slot free again.
  uint64_t posted[pipeline_mhc::has_post(M) ? ring_stages<M, kNorm, kD>() : 1], x_empty[x_slots<kD>()];
  static constexpr int kRing = ctrl_ring<M, kNorm, kD>();
  uint64_t partials_full[kRing], weights_full[kRing], collapsed[kRing];
  alignas(16) float weights[kRing][Geo<kD>::kTile][8];  // pre[4], the RMSNorm scale, padding
  alignas(16) float partials[kRing][Geo<kD>::kOwned][kC][parts_stride<M, kNorm>()];
  alignas(16) float owner_sums[kOwnerWarps][2][parts_stride<M, kNorm>()];
  // The final norm's weights of this CTA's d, for the held collapse, which takes another 8 of them
  // every stage: from global memory their latency sat on its path (2.0 K cycles a stage against 0.7 K
  // without the norm), and the ring's slots wait for the collapse.
  alignas(16) bf16 norm_w[kNorm && held_collapse<M>() ? Geo<kD>::kDs : 8];
  // D = 7168, hc_head and the seam: the ring stages whose wait each projection pair has passed
  // (project_tf32).
  int progress[2];
  uint64_t fn_full;  // D = 7168: fn's slice has landed (stage_fn_f32's bulk copies)
};

template <Mode M, bool kNorm, int kD>
constexpr size_t smem_bytes() {
  return 1024 + size_t(ring_stages<M, kNorm, kD>()) * Geo<kD>::kStageBytes + x_bytes<M, kD>() + fn_bytes<M, kD>() +
         sizeof(Ctrl<M, kNorm, kD>);
}
static_assert(smem_bytes<Mode::kPre, true, 4096>() <= 227 * 1024, "one CTA per SM on sm_90 (227 KB of shared memory)");
static_assert(smem_bytes<Mode::kHead, true, 4096>() <= 227 * 1024, "one CTA per SM on sm_90 (227 KB of shared memory)");
static_assert(smem_bytes<Mode::kFusedHead, true, 4096>() <= 227 * 1024, "one CTA per SM on sm_90 (227 KB of shared memory)");
static_assert(smem_bytes<Mode::kHead, false, 7168>() <= 227 * 1024,  // hc_head has no norm at D = 7168 (launch)
              "one CTA per SM on sm_90 (227 KB of shared memory)");
static_assert(smem_bytes<Mode::kPre, true, 7168>() <= 227 * 1024, "one CTA per SM on sm_90 (227 KB of shared memory)");
static_assert(smem_bytes<Mode::kFusedHead, true, 7168>() <= 227 * 1024, "one CTA per SM on sm_90 (227 KB of shared memory)");

// A stage, every stream, in one copy: residual[t0 .. t0 + kTile - 1][0 .. 3][d0 .. d0 + 31] as the box
// (32 d, kTile tokens, 4 streams) of a map whose dimensions are ordered (d, token, stream), so that each
// stream's tokens land contiguously (stream i at i * kBoxBytes), kept in L2 (policy). One copy a stage
// instead of one a stream: fewer producer instructions (measured: the seam with the norm at D = 7168 3 %
// faster, the rest within 1 %; benchmarks/NOTES.md, session 2026-11-27 (15)).
__device__ __forceinline__ void tma_load_stage(uint32_t dst, const CUtensorMap* map, int d0, int t0, uint32_t bar,
                                               uint64_t policy) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1, {%2, %3, "
      "%4}], [%5], %6;" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(d0), "r"(t0), "r"(0), "r"(bar), "l"(policy)
      : "memory");
}

// One box of x [T, D]: x[t0 .. t0 + 63][d0 .. d0 + 31].
__device__ __forceinline__ void tma_load_box_2d(uint32_t dst, const CUtensorMap* map, int d0, int t0, uint32_t bar,
                                                uint64_t policy) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1, {%2, "
      "%3}], [%4], %5;" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(d0), "r"(t0), "r"(bar), "l"(policy)
      : "memory");
}

// A word that one warp polls while another writes it: an atomic read (racecheck reports plain, volatile
// and relaxed reads of such a word as races) and a relaxed store.
__device__ __forceinline__ int atomic_load_shared(uint32_t addr) {
  int v;
  asm volatile("atom.shared.or.b32 %0, [%1], 0;" : "=r"(v) : "r"(addr) : "memory");
  return v;
}
// (An atomic store cost the seam's norm kernel 8 bytes of spill.)
__device__ __forceinline__ void relaxed_store_shared(uint32_t addr, int v) {
  asm volatile("st.relaxed.cta.shared.b32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_wait_all() { asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory"); }

// D (+)= A B, m64n72k16: A (bf16) from registers in mma.sync m16n8k16's fragment layout (each warp
// its 16 rows), B (bf16) from shared memory by descriptor, fp32 accumulators (d[4 jj + q]: mma.sync's
// C of columns 8 jj .. 8 jj + 7). accumulate = 0 starts the chain from zero.
__device__ __forceinline__ void wgmma_n72(float (&d)[36], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                          uint64_t desc_b, int accumulate) {
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %41, 0;\n"
      " wgmma.mma_async.sync.aligned.m64n72k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, "
      "%12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, "
      "%34, %35}, {%36, %37, %38, %39}, %40, p, 1, 1, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(desc_b), "r"(accumulate));
}

// The same, m64n16k16 (hc_head: hi | mid in columns 0-7, lo in 8-11).
__device__ __forceinline__ void wgmma_n16(float (&d)[8], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                          uint64_t desc_b, int accumulate) {
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %13, 0;\n"
      " wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, "
      "%12, p, 1, 1, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(desc_b), "r"(accumulate));
}

// B: one k16 x N block, K-major core matrices without swizzle: the two k halves 128 bytes apart,
// groups of 8 columns 256 bytes apart.
__device__ __forceinline__ uint64_t b_descriptor(uint32_t addr) {
  return uint64_t((addr & 0x3ffffu) >> 4) | (uint64_t(128 >> 4) << 16) | (uint64_t(256 >> 4) << 32);
}
// fn's B block of stage v, stream i and k16 step u.
__host__ __device__ constexpr int b_block(int v, int i, int u) { return (v * kN + i) * 2 + u; }

// fn's slice as B blocks in the pipeline's k order: in block (v, i, u), core row (column
// part * part_cols + n, kh) holds at element e2 = 2 c + e that part of
// fn[n][i D + 256 rank + 32 v + 8 c + 4 u + 2 kh + e]
// (k = 8 kh + e2: the d that the pipeline's lane c feeds to k step u at that k). The parts are the
// pipeline's split3_bf16x2 (its staged engine's bits). An item is one row's 32 d of a stage and stream
// (whole 128-byte lines of fn); consecutive threads take consecutive rows n, so that their 16-byte
// stores fill whole 128-byte lines of shared memory. A rolled loop over a thread's items (two or three
// for 24 rows), the next item's loads in flight while one is split: the staging is on the path of the
// projection's first stage, and the rolled body (a third less code) measured ~1 us a call faster than
// two items unrolled (benchmarks/NOTES.md, session 17).
template <Mode M>
__device__ __forceinline__ void stage_fn(const MhcPreParams& pp, int rank, unsigned char* b_smem, int tid,
                                         int nthreads) {
  using G = Geo<4096>;
  constexpr int kRows = rows<M>(), kBBlock = b_block_bytes<M>(), kHidden = G::kHidden, kDs = G::kDs;
  constexpr int kItems = kRows * kN * G::kSteps;  // (n, i, v)
  const auto load = [&](int q, float4 (&v)[kStageD / 4]) {
    const int n = q % kRows, i = (q / kRows) % kN, st = q / (kRows * kN);
    const float4* src =
        reinterpret_cast<const float4*>(pp.fn + int64_t(n) * kN * kHidden + i * kHidden + rank * kDs + st * kStageD);
#pragma unroll
    for (int k = 0; k < kStageD / 4; ++k) v[k] = q < kItems ? __ldg(src + k) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  };
  float4 cur[kStageD / 4];
  load(tid, cur);
#pragma unroll 1
  for (int q = tid; q < kItems; q += nthreads) {
    float4 nxt[kStageD / 4];
    load(q + nthreads, nxt);  // in flight while this item is split
    const int n = q % kRows, i = (q / kRows) % kN, st = q / (kRows * kN);
    const float* f = reinterpret_cast<const float*>(cur);
#pragma unroll
    for (int u = 0; u < 2; ++u)
#pragma unroll
      for (int kh = 0; kh < 2; ++kh) {
        uint32_t w[4][3];  // bf16 pair j of each part: d 8 j + 4 u + 2 kh and the next
#pragma unroll
        for (int jj = 0; jj < 4; ++jj)
          pipeline_mhc::split3_bf16x2(f[8 * jj + 4 * u + 2 * kh], f[8 * jj + 4 * u + 2 * kh + 1], w[jj]);
        unsigned char* block = b_smem + b_block(st, i, u) * kBBlock + kh * 128;
        const auto row = [&](int col) { return reinterpret_cast<uint4*>(block + (col / 8) * 256 + (col % 8) * 16); };
#pragma unroll
        for (int part = 0; part < 3; ++part)
          *row(part * part_cols<M>() + n) = make_uint4(w[0][part], w[1][part], w[2][part], w[3][part]);
        if constexpr (3 * part_cols<M>() < cols<M>()) *row(3 * part_cols<M>() + n) = make_uint4(0, 0, 0, 0);
      }
#pragma unroll
    for (int k = 0; k < kStageD / 4; ++k) cur[k] = nxt[k];
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // the generic stores, seen by wgmma
}

// D = 7168: fn's slice as the pipeline's kTf32 engine stages it (row n, stream i, d of the CTA's slice at
// n * fn_stride + i * D/C + d), split into tf32 hi + lo where it is used. One bulk copy a row and stream,
// issued by one warp, complete on `bar` (the projection waits for it): the threads' 16-byte loads and
// stores of the 172 KB kept every D = 7168 call 1-4 us longer (benchmarks/NOTES.md, session 16).
template <Mode M>
__device__ __forceinline__ void stage_fn_f32(const MhcPreParams& pp, int rank, float* fn_s, uint64_t* bar, int lane) {
  using G = Geo<7168>;
  constexpr int kCopies = rows<M>() * kN;
  constexpr uint32_t kBytes = G::kDs * sizeof(float);
  static_assert(kBytes % 16 == 0 && fn_stride<7168>() % 4 == 0, "bulk copies: 16-byte sizes and addresses");
  if (lane == 0) mbar_arm(bar, kCopies * kBytes);
  __syncwarp();
  for (int q = lane; q < kCopies; q += 32) {
    const int n = q / kN, i = q % kN;
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     smem_u32(fn_s + n * fn_stride<7168>() + i * G::kDs)),
                 "l"(pp.fn + (int64_t(n) * kN + i) * G::kHidden + rank * G::kDs), "r"(kBytes), "r"(smem_u32(bar))
                 : "memory");
  }
}

// Token row m's d 8c .. 8c + 7 of a stage, every stream, from the 64-byte-swizzled boxes (16-byte
// chunk ch of row m sits at chunk ch ^ (m/2 % 4)).
__device__ __forceinline__ uint32_t box_chunk(uint32_t box, int m, int c) {
  return box + m * 64 + ((c ^ ((m >> 1) & 3)) * 16);
}
__device__ __forceinline__ uint4 ld_shared_v4(uint32_t addr) {
  uint4 v;
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr));
  return v;
}
template <int kD>
__device__ __forceinline__ void load_row_chunk(uint32_t stage, int m, int c, uint4 (&r)[kN]) {
  const uint32_t row = box_chunk(stage, m, c);
#pragma unroll
  for (int i = 0; i < kN; ++i) r[i] = ld_shared_v4(row + i * Geo<kD>::kBoxBytes);
}

// The pipeline worker's lane words of a stage: tokens m0 + g + 8 h, d 8c .. 8c + 7 of the stage's 32.
template <int kD>
__device__ __forceinline__ void load_lane_words(uint32_t stage, int m0, int lane, uint4 (&r)[2][kN]) {
#pragma unroll
  for (int h = 0; h < 2; ++h) load_row_chunk<kD>(stage, m0 + lane / 4 + 8 * h, lane % 4, r[h]);
}

// Token m's squares (or Gram entries) from this CTA into its owner's partials slot s, after the projections
// (owner = m % kC; bar: that slot's partials_full in the owner).
template <Mode M, bool kNorm, int kD, int kSq>
__device__ __forceinline__ void push_squares(Ctrl<M, kNorm, kD>& ct, int rank, int s, int m, uint32_t owner,
                                             uint32_t bar, const float (&sq)[kSq]) {
  const uint32_t sdst = cluster_addr(&ct.partials[s][m / kC][rank][rows<M>()], owner);
  if constexpr (kSq == 1) {
    st_async_f32(sdst, sq[0], bar);
  } else {
#pragma unroll
    for (int q = 0; q < kSq; q += 2) st_async_v2(sdst + 4 * q, sq[q], sq[q + 1], bar);
  }
}

// A token row block's CTA partials (rows m0 + g and m0 + g + 8 of the tile) to their owners: row tiles
// [kNt0, kNt1) of the projections, and the squares when kSquares (at D = 7168 two warps share a token
// row block's row tiles).
template <Mode M, bool kNorm, int kD, int kNt0 = 0, int kNt1 = (rows<M>() + 7) / 8, bool kSquares = true>
__device__ __forceinline__ void push_partials(Ctrl<M, kNorm, kD>& ct, int rank, int s, int m0,
                                              const float (&acc)[acc_floats<M>()],
                                              const float (&sq)[2][kNorm ? kGram : 1], int lane) {
  constexpr int kRows = rows<M>();
  const int g = lane / 4, c = lane % 4;
#pragma unroll
  for (int hrow = 0; hrow < 2; ++hrow) {
    const int m = m0 + g + 8 * hrow;
    const uint32_t owner = uint32_t(m % kC);
    const uint32_t bar = cluster_addr(&ct.partials_full[s], owner);
    const uint32_t dst = cluster_addr(&ct.partials[s][m / kC][rank][0], owner);
#pragma unroll
    for (int jj = kNt0; jj < kNt1; ++jj)
      if (8 * jj + 2 * c < kRows)
        st_async_v2(dst + 4 * (8 * jj + 2 * c), acc[4 * jj + 2 * hrow], acc[4 * jj + 2 * hrow + 1], bar);
    if (kSquares && c == g / 2) push_squares(ct, rank, s, m, owner, bar, sq[hrow]);  // the lane with its squares
  }
}

// A stage's squares (or Gram entries) added to the tile's, the stages in order as the pipeline's CTA sum.
template <int kH, int kSq>
__device__ __forceinline__ void add_stage_squares(float (&sq)[kH][kSq], const float (&ssq)[kH][kSq], int v) {
#pragma unroll
  for (int h = 0; h < kH; ++h)
#pragma unroll
    for (int q = 0; q < kSq; ++q) sq[h][q] = v == 0 ? ssq[h][q] : sq[h][q] + ssq[h][q];
}

// Tile j's partials slot, once it is free: this CTA's collapse of tile j - kRing is done (see the header).
template <Mode M, bool kNorm, int kD>
__device__ __forceinline__ int free_partials_slot(Ctrl<M, kNorm, kD>& ct, int j) {
  constexpr int kRing = Ctrl<M, kNorm, kD>::kRing;
  const int s = j % kRing;
  if (j >= kRing) mbar_wait(&ct.collapsed[s], ((j - kRing) / kRing) & 1);
  return s;
}

// A tile's partials pushed once the ring slot is free.
template <Mode M, bool kNorm, int kD, int kNt0 = 0, int kNt1 = (rows<M>() + 7) / 8, bool kSquares = true>
__device__ __forceinline__ void push_tile(Ctrl<M, kNorm, kD>& ct, int rank, int j, int m0,
                                          const float (&acc)[acc_floats<M>()],
                                          const float (&sq)[2][kNorm ? kGram : 1], int lane) {
  push_partials<M, kNorm, kD, kNt0, kNt1, kSquares>(ct, rank, free_partials_slot(ct, j), m0, acc, sq, lane);
}

// The projection warpgroup: per stage, the pipeline worker's arithmetic on 64 tokens (see the header).
template <Mode M, bool kNorm>
__device__ __forceinline__ void mma_loop(Ctrl<M, kNorm, 4096>& ct, const unsigned char* stages,
                                         const unsigned char* b_smem, int rank, int ntiles) {
  constexpr int kSteps = Geo<4096>::kSteps, kStageBytes = Geo<4096>::kStageBytes;
  constexpr int kSq = kNorm ? kGram : 1, kStages = ring_stages<M, kNorm, 4096>(), kBBlock = b_block_bytes<M>();
  constexpr int kAcc = acc_floats<M>();  // acc[4 jj + q]: column group jj of the fold (lanes c < 2 for hc_head)
  // The squares are summed elsewhere: by the Gram warps or the seam's post warpgroup.
  constexpr bool kSquaresElsewhere = gram_warps<M, kNorm, 4096>() || gram_in_post<M, kNorm, 4096>();
  const int tid = threadIdx.x % 128, wi = tid / 32, lane = tid % 32;
  const uint32_t stages_u32 = smem_u32(stages);
  const uint64_t db0 = b_descriptor(smem_u32(b_smem));
  for (int j = 0; j < ntiles; ++j) {
    float acc[kAcc], sq[2][kSq];  // mma.sync's C layout of rows 8 jj .. 8 jj + 7
    for (int v = 0; v < kSteps; ++v) {
      const int it = j * kSteps + v, slot = it % kStages;
      mbar_wait(pipeline_mhc::has_post(M) ? &ct.posted[slot] : &ct.full[slot], (it / kStages) & 1);
      uint4 r[2][kN];
      load_lane_words<4096>(stages_u32 + slot * kStageBytes, 16 * wi, lane, r);
      float chain[cols<M>() / 2];
      const uint64_t dbv = db0 + uint64_t((b_block(v, 0, 0) * kBBlock) >> 4);
      wgmma_fence();
      // Descriptor start addresses are in 16-byte units in the low bits: offsets add directly.
#pragma unroll
      for (int i = 0; i < kN; ++i) {
        const uint32_t* x0 = &r[0][i].x;
        const uint32_t* x1 = &r[1][i].x;
#pragma unroll
        for (int u = 0; u < 2; ++u) {
          // The stage's base once, then compile-time offsets: the descriptors stay on the uniform datapath.
          const uint64_t db = dbv + uint64_t((b_block(0, i, u) * kBBlock) >> 4);
          if constexpr (cols<M>() == 72) {
            wgmma_n72(chain, x0[2 * u], x1[2 * u], x0[2 * u + 1], x1[2 * u + 1], db, i + u);
          } else {
            wgmma_n16(chain, x0[2 * u], x1[2 * u], x0[2 * u + 1], x1[2 * u + 1], db, i + u);
          }
        }
      }
      wgmma_commit();
      // The squares on CUDA cores while the chain is in flight (wgmma only reads the words), unless summed
      // elsewhere.
      float ssq[2][kSq];
      if constexpr (!kSquaresElsewhere) pipeline_mhc::tile_squares<kNorm, true>(r, lane / 4, ssq);
      // The slot may refill only once the words are used: the squares used them; without them the chain's
      // completion does (wgmma reads its register operands asynchronously).
      if constexpr (kSquaresElsewhere) wgmma_wait_all();
      if constexpr (!kSquaresElsewhere) __threadfence_block();  // the words' loads performed before the release
      __syncwarp();
      if (lane == 0) mbar_arrive(&ct.empty[slot]);  // the words are in registers: the slot may refill
      wgmma_wait_all();
      // The stage's (= pipeline worker's) partial: (lo + mid) + hi; then the stages in order (the
      // pipeline's CTA sum over its workers starts from worker 0's partial).
#pragma unroll
      for (int q = 0; q < kAcc; ++q) {
        float s;
        if constexpr (cols<M>() == 72) {
          s = (chain[q + 24] + chain[q + 12]) + chain[q];
        } else {  // lane c < 2: hi of rows 2c, 2c + 1 here, mid in lane c + 2, lo in column group 1
          s = (chain[q + 4] + __shfl_down_sync(0xffffffffu, chain[q], 2)) + chain[q];
        }
        acc[q] = v == 0 ? s : acc[q] + s;
      }
      if constexpr (!kSquaresElsewhere) add_stage_squares(sq, ssq, v);
    }
    // Squares summed elsewhere: sq is never read (whoever sums them pushes them).
    push_tile<M, kNorm, 4096, 0, (rows<M>() + 7) / 8, !kSquaresElsewhere>(ct, rank, j, 16 * wi, acc, sq, lane);
  }
}

// The Gram warpgroup (gram_warps(); without the norm tile_squares' one entry): per stage the projection's lane words
// and tile_squares (warp wi: tokens 16 wi .. 16 wi + 15, as the projection warp wi), the stages in order; per tile
// the squares to their owners.
template <Mode M, bool kNorm>
__device__ __forceinline__ void gram_loop(Ctrl<M, kNorm, 4096>& ct, const unsigned char* stages, int rank,
                                          int ntiles) {
  constexpr int kSteps = Geo<4096>::kSteps, kStageBytes = Geo<4096>::kStageBytes;
  constexpr int kStages = ring_stages<M, kNorm, 4096>();
  const int tid = threadIdx.x % 128, wi = tid / 32, lane = tid % 32;
  const uint32_t stages_u32 = smem_u32(stages);
  const float none[acc_floats<M>()] = {};  // no rows: the projection pushes them
  constexpr int kSq = kNorm ? kGram : 1;
  for (int j = 0; j < ntiles; ++j) {
    float sq[2][kSq];
    for (int v = 0; v < kSteps; ++v) {
      const int it = j * kSteps + v, slot = it % kStages;
      mbar_wait(&ct.full[slot], (it / kStages) & 1);
      uint4 r[2][kN];
      load_lane_words<4096>(stages_u32 + slot * kStageBytes, 16 * wi, lane, r);
      float ssq[2][kSq];
      pipeline_mhc::tile_squares<kNorm, true>(r, lane / 4, ssq);
      // The slot may refill only once the words are used. Without an order, the squares were computed after the
      // release and mhc_pre's 3-slot ring refilled slots whose loads were still in flight: tokens got another
      // stage's words, a few rows in a thousand, different from call to call (benchmarks/NOTES.md, session 20).
      // So the diagonal entries (every word of the lane) are operands before the arrive, and a CTA fence waits
      // for the loads.
      if constexpr (kNorm) {
        asm volatile("" ::"f"(ssq[0][0]), "f"(ssq[0][1]), "f"(ssq[0][2]), "f"(ssq[0][3]), "f"(ssq[1][0]),
                     "f"(ssq[1][1]), "f"(ssq[1][2]), "f"(ssq[1][3]) : "memory");
      } else {  // the one entry uses every word of the lane
        asm volatile("" ::"f"(ssq[0][0]), "f"(ssq[1][0]) : "memory");
      }
      __threadfence_block();  // and the loads performed before the release, whatever ptxas schedules
      __syncwarp();
      if (lane == 0) mbar_arrive(&ct.empty[slot]);
      add_stage_squares(sq, ssq, v);
    }
    push_tile<M, kNorm, 4096, 0, 0, true>(ct, rank, j, 16 * wi, none, sq, lane);
  }
}

// The projection warpgroup at D = 7168: the pipeline's tf32 engine (worker_loop's kTf32 branch), term for
// term, on a warp's 16 tokens of a stage: per stream and row tile a chain from zero over the 4 k8 steps
// of the lane's 8 d, fn's hi then lo into it, the streams added in order; the squares or the Gram matrix
// as that engine's tile_squares (on tensor cores; the Gram two entries an mma, gram_own, the same bits; the
// fused seam's post warps sum it instead, gram_in_post). Warps 0-1 take tokens 0-15 and 16-31. hc_head (one
// row tile, the held ring of 24 stages): warps 0-1 project even tiles, warps 2-3 odd ones, so a warp
// has two tiles' time for a tile's 14 stages. mhc_pre / mhc_pre_delayed (3 row tiles; a ring of 4
// stages, too short for two tiles at once): every warp every stage, warps 0-1 row tile 0 and the
// squares, warps 2-3 row tiles 1-2 (the pipeline decode engine's split: the same chains and sums).
template <Mode M, bool kNorm, bool kRowSplit, int kNt0, int kNt1, bool kSquares>
__device__ __forceinline__ void project_tf32(Ctrl<M, kNorm, 7168>& ct, const unsigned char* stages,
                                             const float* fn_s, int rank, int ntiles) {
  using G = Geo<7168>;
  constexpr int kSq = kNorm ? kGram : 1, kStages = ring_stages<M, kNorm, 7168>(), kRows = rows<M>();
  constexpr int kNt = (kRows + 7) / 8;  // row tiles of 8 (hc_head: rows 4-7 zero)
  static_assert(acc_floats<M>() == 4 * kNt, "acc[4 nt + q]: mma.sync's C layout of row tile nt");
  const int tid = threadIdx.x % 128, wi = tid / 32, lane = tid % 32, g = lane / 4, c = lane % 4;
  const int m0 = 16 * (wi % 2);
  const uint32_t stages_u32 = smem_u32(stages);
  const float* fn_lane = fn_s + g * fn_stride<7168>() + 8 * c;  // row nt * 8 + g
  const int pair = wi / 2;
  mbar_wait(&ct.fn_full, 0);  // fn's slice (one phase)
  const uint32_t progress = smem_u32(ct.progress);  // polled while written
  for (int j = kRowSplit ? 0 : pair; j < ntiles; j += kRowSplit ? 1 : 2) {
    // Row tiles [kNt0, kNt1) and (kSquares) sq are summed and pushed. The stages are added from zero (acc += part),
    // not selected on v == 0, and part starts from stream 0's chain, not from 0.0f: 0 + x is x for every x but -0
    // (and a NaN's payload, whatever the add's rule), and the only reader, owner_loop, sums the partials from 0.0f,
    // which makes the two agree. The same bits; the select's moves back into the loop-carried registers and the
    // 0 + x adds are gone (session 33: 28 instructions a stage on the Gram warps, 17 on row tiles 1-2).
    float acc[4 * kNt] = {}, sq[2][kSq] = {};
    for (int v = 0; v < G::kSteps; ++v) {
      const int it = j * G::kSteps + v, slot = it % kStages;
      if constexpr (!kRowSplit) {
        // A pair skips the other pair's stages, so the slot's previous fill (it - kStages) may be one it
        // never waited for: a parity wait is sound only once that fill has landed, i.e. once the other
        // pair passed its own wait for it. (The ring is shorter than two tiles: that fill may be in tile
        // j - 1.) The slot's next fill needs this pair's arrival, so the barrier cannot run ahead.
        if (const int prev = it - kStages; prev >= 0 && (prev / G::kSteps) % 2 != pair)
          while (atomic_load_shared(progress + 4 * (pair ^ 1)) <= prev) {
          }
      }
      mbar_wait(pipeline_mhc::has_post(M) ? &ct.posted[slot] : &ct.full[slot], (it / kStages) & 1);
      if (!kRowSplit && wi % 2 == 0 && lane == 0) relaxed_store_shared(progress + 4 * pair, it + 1);
      uint4 r[2][kN];
      load_lane_words<7168>(stages_u32 + slot * G::kStageBytes, m0, lane, r);
      // The streams' and row tiles' chains interleaved (ptxas issues the mma in source order, volatile
      // or not: one chain's 8 dependent mma would run back to back, which the pipeline hides with 14
      // warps and two warps here cannot). Each chain still sees hi then lo of k8 steps 0..3 in turn: the pipeline's
      // chain, the same bits. fn's rows are loaded two k8 steps at a time: 4 d a stream and row tile.
      float chain[kN][kNt][4] = {};
      float4 f4[kN][kNt];  // fn's 4 d of two k8 steps a stream and row tile (one 16-byte load: distinct banks)
#pragma unroll
      for (int jj = 0; jj < 4; ++jj) {
        uint32_t a[kN][4], bh[kN][kNt][2], bl[kN][kNt][2];
#pragma unroll
        for (int i = 0; i < kN; ++i) {
#pragma unroll
          for (int nt = kNt0; nt < kNt1; ++nt) {
            if (jj % 2 == 0)
              f4[i][nt] = nt * 8 + g < kRows ? *reinterpret_cast<const float4*>(
                                                   fn_lane + nt * 8 * fn_stride<7168>() + i * G::kDs + v * kStageD + 2 * jj)
                                             : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            const float2 f = jj % 2 == 0 ? make_float2(f4[i][nt].x, f4[i][nt].y) : make_float2(f4[i][nt].z, f4[i][nt].w);
            pipeline_mhc::split_tf32(f.x, bh[i][nt][0], bl[i][nt][0]);
            pipeline_mhc::split_tf32(f.y, bh[i][nt][1], bl[i][nt][1]);
          }
          a[i][0] = pipeline_mhc::tf32_of(r[0][i], 2 * jj), a[i][1] = pipeline_mhc::tf32_of(r[1][i], 2 * jj);
          a[i][2] = pipeline_mhc::tf32_of(r[0][i], 2 * jj + 1), a[i][3] = pipeline_mhc::tf32_of(r[1][i], 2 * jj + 1);
        }
#pragma unroll
        for (int i = 0; i < kN; ++i)
#pragma unroll
          for (int nt = kNt0; nt < kNt1; ++nt)
            pipeline_mhc::mma_tf32(chain[i][nt], a[i][0], a[i][1], a[i][2], a[i][3], bh[i][nt][0], bh[i][nt][1]);
#pragma unroll
        for (int i = 0; i < kN; ++i)
#pragma unroll
          for (int nt = kNt0; nt < kNt1; ++nt)
            pipeline_mhc::mma_tf32(chain[i][nt], a[i][0], a[i][1], a[i][2], a[i][3], bl[i][nt][0], bl[i][nt][1]);
      }
      float part[4 * kNt];  // the streams in order, as the pipeline's acc (from stream 0's chain: see acc)
#pragma unroll
      for (int i = 0; i < kN; ++i)
#pragma unroll
        for (int nt = kNt0; nt < kNt1; ++nt)
#pragma unroll
          for (int q = 0; q < 4; ++q) part[4 * nt + q] = i == 0 ? chain[i][nt][q] : part[4 * nt + q] + chain[i][nt][q];
      float ssq[2][kSq];
      if constexpr (kSquares && kNorm) {  // two Gram entries an mma (gram_own), the bits of tile_squares' form
        pipeline_mhc::gram_own(r[0], g, ssq[0]);
        pipeline_mhc::gram_own(r[1], g, ssq[1]);
      } else if constexpr (kSquares) {
        pipeline_mhc::tile_squares<kNorm, false>(r, g, ssq);
      }
      // The slot's loads performed before its release, whatever ptxas schedules (as the collapses): the mma are
      // ordered for the compiler, not for ptxas, which may issue the arrive before the mma that read the words.
      // Session 28: with fn's loads as float4s it issued the arrive three instructions after the stage's loads,
      // and mhc_pre with the norm gave a few rows another stage's words in most of 30 runs (benchmarks/NOTES.md).
      __threadfence_block();
      __syncwarp();
      if (lane == 0) mbar_arrive(&ct.empty[slot]);  // the words are used: the slot may refill
#pragma unroll
      for (int q = 4 * kNt0; q < 4 * kNt1; ++q) acc[q] += part[q];
      if constexpr (kSquares)
#pragma unroll
        for (int h = 0; h < 2; ++h)
#pragma unroll
          for (int q = 0; q < kSq; ++q) sq[h][q] += ssq[h][q];
    }
    // The collapses come in tile order (and a pair waited for tile j - 2 - kRing's before its last
    // push): the parity wait in push_tile is sound.
    push_tile<M, kNorm, 7168, kNt0, kNt1, kSquares>(ct, rank, j, m0, acc, sq, lane);
  }
}

template <Mode M, bool kNorm>
__device__ __forceinline__ void mma_loop_tf32(Ctrl<M, kNorm, 7168>& ct, const unsigned char* stages,
                                              const float* fn_s, int rank, int ntiles) {
  constexpr int kNt = (rows<M>() + 7) / 8;
  if constexpr (kNt == 1) {
    project_tf32<M, kNorm, false, 0, 1, !gram_in_post<M, kNorm, 7168>()>(ct, stages, fn_s, rank, ntiles);
  } else if (threadIdx.x % 128 < 64) {
    project_tf32<M, kNorm, true, 0, 1, true>(ct, stages, fn_s, rank, ntiles);
  } else {
    project_tf32<M, kNorm, true, 1, kNt, false>(ct, stages, fn_s, rank, ntiles);
  }
}

// Owners: the two token pairs of every tile (4 owned tokens, 16 lanes each) go round the owner
// warps. The collapse waits only for the pre weights and the norm scale, so they are pushed first;
// the Sinkhorn of comb (owner_mixes) follows. Each pair's warp re-arms the slot for its half of the
// bytes. The sums and the weights are the pipeline owner's expressions.
template <Mode M, bool kNorm, int kD>
__device__ __forceinline__ void owner_loop(const MhcPreParams& pp, const DelayedArgs& da, Ctrl<M, kNorm, kD>& ct,
                                           int rank, int owner, int64_t first_tile, int64_t tile_step, int ntiles) {
  constexpr int kRing = Ctrl<M, kNorm, kD>::kRing;
  constexpr int kP = parts<M, kNorm>(), kPairs = Geo<kD>::kOwned / 2, kRows = rows<M>();
  const int lane = threadIdx.x % 32, half = lane / 16, sub = lane % 16;
  const pipeline_mhc::OwnerConsts consts = pipeline_mhc::owner_consts<M>(pp, sub);
  for (int idx = owner; idx < ntiles * kPairs; idx += kOwnerWarps) {
    const int j = idx / kPairs, pair = idx % kPairs, s = j % kRing;
    const int64_t tile = first_tile + j * tile_step;
    const int local = 2 * pair + half, m = local * kC + rank;
    const int64_t t = tile * Geo<kD>::kTile + m;
    float* sums = ct.owner_sums[owner][half];
    const float carried = pipeline_mhc::carried_weight<M>(pp, da, t, sub);
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
    const float w = pipeline_mhc::owner_weight<M>(pp, consts, carried, sums, sum_sq, sub);  // stream sub & 3's weight
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
      norm_scale = rms_factor(ss, pp.hidden, pp.scalars.norm_eps);
    }
    const uint32_t bar = cluster_addr(&ct.weights_full[s], uint32_t(sub));
    const uint32_t dst = cluster_addr(&ct.weights[s][m][0], uint32_t(sub));
    st_async(dst, make_float4(pre[0], pre[1], pre[2], pre[3]), bar);
    st_async(dst + 16, make_float4(norm_scale, 0.0f, 0.0f, 0.0f), bar);
    if constexpr (!pipeline_mhc::is_head(M)) pipeline_mhc::owner_mixes<M>(pp, da, consts, sums, sum_sq, t, sub);
    __syncwarp();  // sums is rewritten by this warp's next pair
  }
}

// Every collapse warp of this CTA is done with tile slot s: the projection may push into it again
// (collapsed), and the slot's weights barrier takes its next phase's bytes, re-armed after this
// thread's own wait (the next bytes come only after every warp arrived on collapsed[s]).
template <Mode M, bool kNorm, int kD>
__device__ __forceinline__ void tile_collapsed(Ctrl<M, kNorm, kD>& ct, int s, int tid) {
  __syncwarp();
  if (tid % 32 == 0) mbar_arrive(&ct.collapsed[s]);
  if (tid == 0) mbar_arm(&ct.weights_full[s], uint32_t(Geo<kD>::kTile * 8 * sizeof(float)));
}

// The collapse of each tile once its weights arrive, the residual re-read from L2 (the pipeline's
// collapse8). A thread keeps one 8-d chunk of the CTA's d and takes every kStep-th token of the tile:
// D = 4096 32 chunks x 4 (every thread), D = 7168 56 chunks x 2 (112 threads; the rest only signal).
template <Mode M, bool kNorm, int kD>
__device__ __forceinline__ void collapse_loop(const MhcPreParams& pp, Ctrl<M, kNorm, kD>& ct, int rank,
                                              int64_t first_tile, int64_t tile_step, int ntiles, bool identity) {
  constexpr int kRing = Ctrl<M, kNorm, kD>::kRing;
  using G = Geo<kD>;
  constexpr int kTile = G::kTile, kDs = G::kDs, kHidden = G::kHidden, kChunks = kDs / 8, kStep = 128 / kChunks;
  static_assert(kTile % kStep == 0 && kTile / kStep == 16, "16 tokens a thread: two batches of 8");
  const int tid = threadIdx.x % 128;
  const bool active = kChunks * kStep == 128 || tid < kChunks * kStep;
  const int64_t d = int64_t(rank) * kDs + 8 * (tid % kChunks);
  const int m0 = active ? tid / kChunks : 0;  // tokens m0, m0 + kStep, ...
  float wv[8] = {};
  if (kNorm && active) load_bf16x8(pp.norm_weight + d, wv);
  constexpr int kBatch = 8;  // tokens whose loads are in flight together
  // The next batch's loads are issued as soon as the registers are free: the first batch of tile
  // j + 1 before the wait for its weights (its boxes are in L2 by the time tile j is collapsed), so
  // that the collapse starts on loaded values when the weights arrive. A token's registers are
  // refilled as soon as it is collapsed (not once the batch is), so that 8 tokens' loads stay in
  // flight while the batch is computed.
  // One base a tile for the loads and the stores, the tokens at compile-time offsets from it (token m0 + kStep q,
  // stream i: (kStep q kN + i) D elements from the residual's base, kStep q D from layer_input's), and one bound a
  // tile (left: the tile's tokens from m0 on, 0 if inactive): ptxas had rebuilt each stream's 64-bit address from t,
  // and compared t in 64 bits, for every token. A token past the end is not loaded (its registers keep older words,
  // whose collapse is not stored) instead of loaded as zeros (8 moves a token). Counted in the SASS (session 32): the
  // collapse's tile 2119 -> 1552 instructions a warp without the norm, 2913 -> 2343 with it (D = 7168); the same math.
  struct TileRef {
    const bf16* src;
    bf16* dst;
    int left;
  };
  const auto tile_ref = [&](int64_t tile) {
    const int64_t t0 = tile * kTile + m0, left = active ? pp.tokens - t0 : 0;
    return TileRef{pp.residual + t0 * kN * kHidden + d, pp.layer_input + t0 * kHidden + d,
                   int(left < 0 ? 0 : left > kTile ? kTile : left)};
  };
  uint4 r[kBatch][kN] = {};
  const auto load_token = [&](int k, const TileRef& tr, int b) {  // r[k] = token m0 + kStep (b + k) of the tile
    const int q = b + k;
    if (kStep * q < tr.left) {
#pragma unroll
      for (int i = 0; i < kN; ++i)
        r[k][i] = __ldcs(reinterpret_cast<const uint4*>(tr.src + (int64_t(kStep * q) * kN + i) * kHidden));
    }
  };
  TileRef cur = tile_ref(first_tile);
  if (ntiles > 0) {
#pragma unroll
    for (int k = 0; k < kBatch; ++k) load_token(k, cur, 0);
  }
  for (int j = 0; j < ntiles; ++j) {
    const int s = j % kRing;
    const int64_t tile = first_tile + j * tile_step;
    const TileRef next = tile_ref(tile + tile_step);
    mbar_wait<1000>(&ct.weights_full[s], (j / kRing) & 1);
#pragma unroll
    for (int b = 0; b < kTile / kStep; b += kBatch) {
#pragma unroll
      for (int k = 0; k < kBatch; ++k) {
        const int q = b + k, m = m0 + kStep * q;
        const float4 pre = *reinterpret_cast<const float4*>(&ct.weights[s][m][0]);
        const float norm_scale = ct.weights[s][m][4];
        float out[8];
        pipeline_mhc::collapse8<kNorm>(r[k], pre, norm_scale, wv, identity, out);
        if (b + kBatch < kTile / kStep)
          load_token(k, cur, b + kBatch);
        else if (j + 1 < ntiles)
          load_token(k, next, 0);
        if (kStep * q < cur.left) store_bf16x8(cur.dst + int64_t(kStep * q) * kHidden, out);
      }
    }
    cur = next;
    tile_collapsed(ct, s, tid);
  }
}

// collapse8<false>'s bits (8 d of one token, y = sum_i pre_i x_i, or stream 0 alone) with the
// rounding written out as the compiler contracts collapse8's expression in the pipeline and the
// re-read collapse (pre_y x_1 rounded, then pre_x x_0, pre_z x_2, pre_w x_3 fused in turn: their PTX).
// Left to the compiler, the ring collapse's context fused it differently and a token got other bits
// than in the pipeline (test_cuda_batch_invariant_across_kernels). Writing the rounding out in
// collapse8 itself made ptxas spill 188 bytes in the re-read collapse (mhc_pre 4 % slower).
__device__ __forceinline__ void ring_collapse8(const uint4 (&r)[kN], float4 pre, bool identity, float (&out)[8]) {
  using pipeline_mhc::f32_of;
#pragma unroll
  for (int e = 0; e < 8; ++e)
    out[e] = identity ? f32_of(r[0], e)
                      : __fmaf_rn(pre.w, f32_of(r[3], e),
                                  __fmaf_rn(pre.z, f32_of(r[2], e), __fmaf_rn(pre.x, f32_of(r[0], e),
                                                                             __fmul_rn(pre.y, f32_of(r[1], e)))));
}

// The ring collapse (ring_collapse()): per stage, 2 of its 64 tokens x 4 chunks of 8 d a thread,
// read from the boxes beside the projection (the slot frees once both warpgroups arrived) and
// weighted by the carried pre_mix (ring_collapse8: the pipeline's bits). Tile j's
// weights (unused here) still mean "every owner consumed tile j's partials": the slot-reuse signal
// (collapsed) that the projection waits for is given two tiles late, once they are surely there.
template <int kD>
__device__ __forceinline__ void ring_collapse_loop(const MhcPreParams& pp, const DelayedArgs& da,
                                                   Ctrl<Mode::kDelayed, false, kD>& ct,
                                                   const unsigned char* stages, int rank, int64_t first_tile,
                                                   int64_t tile_step, int ntiles) {
  constexpr int kRing = Ctrl<Mode::kDelayed, false, kD>::kRing;
  using G = Geo<kD>;
  constexpr int kTile = G::kTile, kDs = G::kDs, kHidden = G::kHidden, kSteps = G::kSteps;
  constexpr int kStageBytes = G::kStageBytes, kH = G::kRowsPerThread;
  constexpr int kLag = 2;  // tiles between a tile's stages and its signal
  constexpr int kStages = ring_stages<Mode::kDelayed, false, kD>();
  const int tid = threadIdx.x % 128, lane = tid % 32, c = tid % 4;
  const uint32_t stages_u32 = smem_u32(stages);
  const bool identity = da.pre_mix == nullptr;
  const int64_t d0 = int64_t(rank) * kDs + 8 * c;  // the thread's d in a stage: d0 + v * kStageD
  const auto token = [&](int j, int h) { return (first_tile + j * tile_step) * kTile + tid / 4 + 32 * h; };
  const auto tile_done = [&](int j) {
    const int s = j % kRing;
    mbar_wait<1000>(&ct.weights_full[s], (j / kRing) & 1);
    tile_collapsed(ct, s, tid);
  };
  const auto load_pre = [&](int j, float4 (&pre)[kH]) {
#pragma unroll
    for (int h = 0; h < kH; ++h) {
      const int64_t t = token(j, h);
      float w[kN] = {};
      if (!identity && j < ntiles && t < pp.tokens)
#pragma unroll
        for (int i = 0; i < kN; ++i) w[i] = __ldg(da.pre_mix + t * kN + i);
      pre[h] = make_float4(w[0], w[1], w[2], w[3]);
    }
  };
  float4 pre[kH], pre_next[kH];
  load_pre(0, pre);
  for (int j = 0; j < ntiles; ++j) {
    if (j >= kLag) tile_done(j - kLag);
    for (int v = 0; v < kSteps; ++v) {
      const int it = j * kSteps + v, slot = it % kStages;
      mbar_wait(&ct.full[slot], (it / kStages) & 1);
      uint4 r[kH][kN];
#pragma unroll
      for (int h = 0; h < kH; ++h) load_row_chunk<kD>(stages_u32 + slot * kStageBytes, tid / 4 + 32 * h, c, r[h]);
      // The slot is released once the words are used (as the projection does), not right after
      // their loads were issued: that version gave one token a wrong stage, always a tile's last,
      // in about 1 of 10 runs at T = 901 .. 1500 (the next box landing before the loads read?);
      // this one none in 9 + 436 runs (benchmarks/NOTES.md).
      float out[kH][8];
#pragma unroll
      for (int h = 0; h < kH; ++h) ring_collapse8(r[h], pre[h], identity, out[h]);
      __threadfence_block();  // the slot's loads performed before its release (gram_loop)
      __syncwarp();
      if (lane == 0) mbar_arrive(&ct.empty[slot]);
#pragma unroll
      for (int h = 0; h < kH; ++h) {
        const int64_t t = token(j, h);
        if (t < pp.tokens) store_bf16x8(pp.layer_input + t * kHidden + d0 + v * kStageD, out[h]);
      }
      if (v == 0) load_pre(j + 1, pre_next);  // the next tile's weights, in flight during this one
    }
#pragma unroll
    for (int h = 0; h < kH; ++h) pre[h] = pre_next[h];
  }
  for (int j = ntiles > kLag ? ntiles - kLag : 0; j < ntiles; ++j) tile_done(j);
}

// hc_head's collapse (held_collapse()): tile j's stages stay in the ring until its weights arrive,
// then per stage kRowsPerThread of its tokens x 4 chunks of 8 d a thread are weighted (the pipeline's bits:
// ring_collapse8, then the final norm's rounding and scales as collapse8<true>) and the slot frees
// (both warpgroups arrived). The ring holds 11 stages at D = 4096 (10 beside the fused seam's x ring):
// a tile's 8 while its weights are summed, the next tile's first ones meanwhile; at D = 7168 24 (21) of
// 8 KB: a tile's 14 and 10 (7) more.
template <Mode M, bool kNorm, int kD>
__device__ __forceinline__ void held_collapse_loop(const MhcPreParams& pp, Ctrl<M, kNorm, kD>& ct,
                                                   const unsigned char* stages, int rank, int64_t first_tile,
                                                   int64_t tile_step, int ntiles) {
  constexpr int kRing = Ctrl<M, kNorm, kD>::kRing;
  using G = Geo<kD>;
  constexpr int kStages = ring_stages<M, kNorm, kD>(), kH = G::kRowsPerThread;
  constexpr int kTile = G::kTile, kDs = G::kDs, kHidden = G::kHidden, kSteps = G::kSteps;
  constexpr int kStageBytes = G::kStageBytes;
  const int tid = threadIdx.x % 128, lane = tid % 32, c = tid % 4;
  const uint32_t stages_u32 = smem_u32(stages);
  const int64_t d0 = int64_t(rank) * kDs + 8 * c;  // the thread's d in a stage: d0 + v * kStageD
  for (int j = 0; j < ntiles; ++j) {
    const int s = j % kRing;
    const int64_t tile0 = (first_tile + j * tile_step) * kTile;
    mbar_wait<1000>(&ct.weights_full[s], (j / kRing) & 1);
    float4 pre[kH];
    float scale[kH];
#pragma unroll
    for (int h = 0; h < kH; ++h) {
      pre[h] = *reinterpret_cast<const float4*>(&ct.weights[s][tid / 4 + 32 * h][0]);
      scale[h] = ct.weights[s][tid / 4 + 32 * h][4];
    }
    for (int v = 0; v < kSteps; ++v) {
      const int it = j * kSteps + v, slot = it % kStages;
      float wv[8];
      if constexpr (kNorm) load_bf16x8(&ct.norm_w[8 * c + v * kStageD], wv);
      // Complete since the projection used it (and, for the fused seam, its new streams written).
      mbar_wait(pipeline_mhc::has_post(M) ? &ct.posted[slot] : &ct.full[slot], (it / kStages) & 1);
      uint4 r[kH][kN];
#pragma unroll
      for (int h = 0; h < kH; ++h) load_row_chunk<kD>(stages_u32 + slot * kStageBytes, tid / 4 + 32 * h, c, r[h]);
      float out[kH][8];
#pragma unroll
      for (int h = 0; h < kH; ++h) {
        ring_collapse8(r[h], pre[h], false, out[h]);
        if constexpr (kNorm) {
          round_bf16x8(out[h]);
#pragma unroll
          for (int e = 0; e < 8; ++e) out[h][e] = __fmul_rn(__fmul_rn(out[h][e], scale[h]), wv[e]);
        }
      }
      __threadfence_block();  // the slot's loads performed before its release (gram_loop)
      __syncwarp();
      if (lane == 0) mbar_arrive(&ct.empty[slot]);  // after the words are used (ring_collapse_loop)
#pragma unroll
      for (int h = 0; h < kH; ++h) {
        const int64_t t = tile0 + tid / 4 + 32 * h;
        if (t < pp.tokens) store_bf16x8(pp.layer_input + t * kHidden + d0 + v * kStageD, out[h]);
      }
    }
    tile_collapsed(ct, s, tid);
  }
}

// The fused seam's post (mhc_post_hc_head): per stage, kRowsPerThread of its tokens x 4 chunks of 8 d a thread,
// new_j = bf16(post_j x + sum_i comb_ij r_i) in mhc_post's FMA order (pipeline_mhc::post_chunk), written
// over the residual in the ring (the projection and the collapse read the new streams: the stash's
// bits) and stored as the stash. A tile's mixes are loaded during the tile before.
template <Mode M, bool kNorm, int kD>
__device__ __forceinline__ void post_loop(const MhcPostParams& post, Ctrl<M, kNorm, kD>& ct, unsigned char* stages,
                                          const unsigned char* xs, int rank, int64_t first_tile, int64_t tile_step,
                                          int ntiles) {
  using G = Geo<kD>;
  constexpr int kStages = ring_stages<M, kNorm, kD>(), kMix = kN + kN * kN;  // post_j, then comb_ij at kN + kN i + j
  constexpr int kH = G::kRowsPerThread, kXSlots = x_slots<kD>(), kTile = G::kTile, kDs = G::kDs;
  constexpr int kHidden = G::kHidden, kSteps = G::kSteps, kStageBytes = G::kStageBytes, kBoxBytes = G::kBoxBytes;
  const int tid = threadIdx.x % 128, lane = tid % 32, c = tid % 4;
  const uint32_t stages_u32 = smem_u32(stages), xs_u32 = smem_u32(xs);
  const int64_t d0 = int64_t(rank) * kDs + 8 * c;  // the thread's d in a stage: d0 + v * kStageD
  const auto token = [&](int j, int h) { return (first_tile + j * tile_step) * kTile + tid / 4 + 32 * h; };
  const auto load_mix = [&](int j, float (&mix)[kH][kMix]) {
#pragma unroll
    for (int h = 0; h < kH; ++h) {
      const int64_t t = token(j, h);
      const bool live = j < ntiles && t < post.tokens;
#pragma unroll
      for (int q = 0; q < kMix / 4; ++q) {
        const float4 m = live ? __ldg(reinterpret_cast<const float4*>(q == 0 ? post.post_mix + t * kN
                                                                             : post.comb_mix + (t * kN + q - 1) * kN))
                              : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        mix[h][4 * q] = m.x, mix[h][4 * q + 1] = m.y, mix[h][4 * q + 2] = m.z, mix[h][4 * q + 3] = m.w;
      }
    }
  };
  constexpr bool kGramPost = gram_in_post<M, kNorm, kD>();
  static_assert(!kGramPost || kH == (G::kTf32 ? 1 : 2), "tile_squares' quads (D = 4096), one token (7168)");
  constexpr int kSqH = G::kTf32 ? 1 : 2;  // tokens a thread sums the squares of
  float mix[kH][kMix], next[kH][kMix];
  load_mix(0, mix);
  for (int j = 0; j < ntiles; ++j) {
    float sq[kSqH][kGram];
    load_mix(j + 1, next);
    for (int v = 0; v < kSteps; ++v) {
      const int it = j * kSteps + v, slot = it % kStages, xslot = it % kXSlots;
      mbar_wait(&ct.full[slot], (it / kStages) & 1);
      uint4 r[kH][kN], xw[kH];
#pragma unroll
      for (int h = 0; h < kH; ++h) {
        const int m = tid / 4 + 32 * h;
        load_row_chunk<kD>(stages_u32 + slot * kStageBytes, m, c, r[h]);
        xw[h] = ld_shared_v4(box_chunk(xs_u32 + xslot * kBoxBytes, m, c));
      }
      uint4 nw[kH][kN];  // the new streams' words (gram_in_post)
#pragma unroll
      for (int h = 0; h < kH; ++h) {
        const int m = tid / 4 + 32 * h;
        uint4 out[kN];
        pipeline_mhc::post_chunk(xw[h], r[h], &mix[h][0], &mix[h][kN], out);
#pragma unroll
        for (int i = 0; i < kN; ++i) nw[h][i] = out[i];
        const uint32_t row = box_chunk(stages_u32 + slot * kStageBytes, m, c);
        const int64_t t = token(j, h);
#pragma unroll
        for (int i = 0; i < kN; ++i) {
          asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(row + i * kBoxBytes), "r"(out[i].x),
                       "r"(out[i].y), "r"(out[i].z), "r"(out[i].w)
                       : "memory");
          if (t < post.tokens) *reinterpret_cast<uint4*>(post.out + (t * kN + i) * kHidden + d0 + v * kStageD) = out[i];
        }
      }
      // The slot's next bytes come by TMA (the async proxy) once both readers are done: order these
      // generic writes before them.
      asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
      // Every thread releases its own stores to both readers (one lane's arrive after __syncwarp was
      // reported as a RAW hazard by racecheck: the ordering of the other lanes' stores was implicit).
      mbar_arrive(&ct.posted[slot]);
      // x's slot is released after its words were used (stored above as the new streams) and after the proxy fence:
      // released right after its loads were issued, as until session 29, nothing ordered them before the next box's
      // copy into the slot (the projection's race of that session; none was seen here).
      __syncwarp();
      if (lane == 0) mbar_arrive(&ct.x_empty[xslot]);
      if constexpr (kGramPost) {
        float ssq[kSqH][kGram];
        if constexpr (G::kTf32) {  // the warp's own 8 tokens (token tid / 4, chunk c: the projection's lane layout)
          pipeline_mhc::gram_own(nw[0], lane / 4, ssq[0]);
        } else {  // tokens tid / 4 and + 32, chunk c: tile_squares' quads
          pipeline_mhc::tile_squares<kNorm, true>(nw, 0, ssq);
        }
        add_stage_squares(sq, ssq, v);
      }
    }
    if constexpr (kGramPost) {  // the tile's squares to their owners, once the slot is free
      const int s = free_partials_slot(ct, j);
      if (c == (G::kTf32 ? lane / 8 : 0))  // the lane holding its tokens' sums (D = 7168: the diagonal, c == g / 2)
#pragma unroll
        for (int h = 0; h < kSqH; ++h) {
          const int m = tid / 4 + 32 * h;
          const uint32_t owner = uint32_t(m % kC);
          push_squares(ct, rank, s, m, owner, cluster_addr(&ct.partials_full[s], owner), sq[h]);
        }
    }
#pragma unroll
    for (int h = 0; h < kH; ++h)
#pragma unroll
      for (int q = 0; q < kMix; ++q) mix[h][q] = next[h][q];
  }
}

template <Mode M, bool kNorm, int kD>
__global__ void __launch_bounds__(threads<M, kNorm, kD>(), 1)
    mhc_tma_kernel(const __grid_constant__ CUtensorMap map, const __grid_constant__ CUtensorMap xmap, MhcPreParams pp,
                   DelayedArgs da, MhcPostParams post) {
  constexpr int kRing = Ctrl<M, kNorm, kD>::kRing;
  using G = Geo<kD>;
  constexpr int kTile = G::kTile, kDs = G::kDs, kSteps = G::kSteps, kStageBytes = G::kStageBytes;
  constexpr int kBoxBytes = G::kBoxBytes, kXSlots = x_slots<kD>();
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char* base = smem_raw + ((1024 - (smem_u32(smem_raw) & 1023)) & 1023);
  unsigned char* stages = base;
  constexpr int kStages = ring_stages<M, kNorm, kD>();
  constexpr bool kReadOnce = ring_collapse<M, kNorm>() || held_collapse<M>();  // the collapse reads the ring
  constexpr bool kPost = pipeline_mhc::has_post(M);
  constexpr int kThreads = threads<M, kNorm, kD>();
  constexpr Regs kRegs = regs<M, kNorm, kD>();
  constexpr bool kGramWarps = gram_warps<M, kNorm, kD>();
  unsigned char* xs = base + kStages * kStageBytes;
  unsigned char* b_smem = xs + x_bytes<M, kD>();  // fn's slice (fn_bytes)
  Ctrl<M, kNorm, kD>& ct = *reinterpret_cast<Ctrl<M, kNorm, kD>*>(b_smem + fn_bytes<M, kD>());
  constexpr int kP = parts<M, kNorm>();

  namespace cg = cooperative_groups;
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = int(cluster.block_rank());
  const int warp = threadIdx.x / 32;
  // The barriers and the cluster barrier that publishes them touch no global memory: they run while
  // the previous kernel finishes (programmatic dependent launch); fn and the residual after the wait.
  pdl_trigger();
  if (threadIdx.x == 0) {
    asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(&map)) : "memory");
    if (kPost) asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(&xmap)) : "memory");
    for (int s = 0; s < kStages; ++s) {
      mbar_init_count(&ct.full[s], 1);
      // The consuming warps: the projection's (two a tile for hc_head at D = 7168), the collapse's when it
      // reads the ring and the Gram warps'.
      mbar_init_count(&ct.empty[s],
                      (G::kTf32 && rows<M>() == kN ? 2 : 4) + (kReadOnce ? 4 : 0) + (kGramWarps ? 4 : 0));
      if (kPost) mbar_init_count(&ct.posted[s], 128);  // every post thread
    }
    for (int s = 0; s < kXSlots; ++s) mbar_init_count(&ct.x_empty[s], 4);
    if constexpr (G::kTf32) {
      ct.progress[0] = ct.progress[1] = 0;
      mbar_init_count(&ct.fn_full, 1);
    }
    for (int s = 0; s < kRing; ++s) {
      mbar_init_count(&ct.partials_full[s], G::kOwned / 2);  // one arrival per token pair
      mbar_init_count(&ct.weights_full[s], 1);
      mbar_init_count(&ct.collapsed[s], 4);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    for (int s = 0; s < kRing; ++s) {
      for (int pair = 0; pair < G::kOwned / 2; ++pair)
        mbar_arm(&ct.partials_full[s], uint32_t(2 * kC * kP * sizeof(float)));
      mbar_arm(&ct.weights_full[s], uint32_t(kTile * 8 * sizeof(float)));
    }
  }
  const int64_t tiles = (pp.tokens + kTile - 1) / kTile;
  const int64_t cluster_id = blockIdx.x / kC, clusters = gridDim.x / kC;
  const int ntiles = cluster_id < tiles ? int((tiles - cluster_id + clusters - 1) / clusters) : 0;
  // Producer: stage `it` of this cluster's tiles into ring slot it % kStages.
  // Issued before fn's staging (the ring starts empty), at most what needs no consumer yet: an x slot
  // is freed only by the post warpgroup, which starts after the staging.
  constexpr int kEarly = kPost ? kXSlots : kStages;
  const int stages_total = ntiles * kSteps, early = stages_total < kEarly ? stages_total : kEarly;
  // The residual stays in L2 until the collapse re-reads it (evict-first there). The ring collapse
  // reads it once, but with evict-first the 256-byte promotion's second half was gone before the
  // next stage's box used it: 1.43x the residual's bytes came from HBM (benchmarks/NOTES.md).
  uint64_t policy;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  const auto produce = [&](int it) {
    const int j = it / kSteps, v = it % kSteps, slot = it % kStages;
    const int t0 = int((cluster_id + int64_t(j) * clusters) * kTile);
    if (!kReadOnce && v == 0 && j >= kLoadLag)
      mbar_wait<1000>(&ct.collapsed[(j - kLoadLag) % kRing], ((j - kLoadLag) / kRing) & 1);
    if (it >= kStages) mbar_wait<1000>(&ct.empty[slot], ((it / kStages) & 1) ^ 1);  // the ring starts empty
    if (kPost && it >= kXSlots) mbar_wait<1000>(&ct.x_empty[it % kXSlots], ((it / kXSlots) & 1) ^ 1);
    mbar_arm(&ct.full[slot], kStageBytes + (kPost ? kBoxBytes : 0));
    const uint32_t bar = smem_u32(&ct.full[slot]), dst = smem_u32(stages) + slot * kStageBytes;
    tma_load_stage(dst, &map, rank * kDs + v * kStageD, t0, bar, policy);
    if (kPost) tma_load_box_2d(smem_u32(xs) + (it % kXSlots) * kBoxBytes, &xmap, rank * kDs + v * kStageD, t0, bar,
                               policy);
  };
  // Every CTA's barriers are initialised before anyone pushes: their fence publishes them, so the arrive
  // is relaxed (the progress words are read only by this CTA, after the __syncthreads() below).
  asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
  // Thread 0 issues the first stages (the ring starts empty) while the other warps stage fn. fn and the
  // norm's weights are weights, which no kernel before this one writes (cuda_common.cuh): they are
  // staged before the PDL wait, while the previous kernel finishes (mhc_pre T = 1024 41 -> 36 us).
  if (threadIdx.x == 0) {
    pdl_wait();
    for (int it = 0; it < early; ++it) produce(it);
  }
  if (warp > 0) {
    if constexpr (G::kTf32) {
      if (warp == 1) stage_fn_f32<M>(pp, rank, reinterpret_cast<float*>(b_smem), &ct.fn_full, threadIdx.x % 32);
    } else {
      stage_fn<M>(pp, rank, b_smem, threadIdx.x - 32, kThreads - 32);
    }
  }
  if constexpr (kNorm && held_collapse<M>()) {  // D/C weights: 32 (D = 4096) or 56 16-byte chunks
    if (warp == 1)
      for (int q = threadIdx.x % 32; q < kDs / 8; q += 32)
        reinterpret_cast<uint4*>(ct.norm_w)[q] = __ldg(reinterpret_cast<const uint4*>(pp.norm_weight + rank * kDs) + q);
  }
  if (threadIdx.x != 0) pdl_wait();  // before the first access to what the previous kernel wrote
  __syncthreads();
  // Registers by warpgroup (regs()): the projection's stage (36 chain + 32 operand + 12 + 2 x 10
  // sum registers) spilled at 168 with the fused norm.
  if (warp < 4) {
    set_warpgroup_regs<kRegs.owner, kRegs.launch>();
    if (warp == 0) {
      if (threadIdx.x == 0)
        for (int it = early; it < stages_total; ++it) produce(it);
    } else {
      owner_loop<M, kNorm, kD>(pp, da, ct, rank, warp - 1, cluster_id, clusters, ntiles);
    }
  } else if (warp < 8) {
    set_warpgroup_regs<kRegs.projection, kRegs.launch>();
    if constexpr (G::kTf32) {
      mma_loop_tf32<M, kNorm>(ct, stages, reinterpret_cast<const float*>(b_smem), rank, ntiles);
    } else {
      mma_loop<M, kNorm>(ct, stages, b_smem, rank, ntiles);
    }
  } else if (kGramWarps && warp >= 12) {
    if constexpr (kGramWarps) {
      set_warpgroup_regs<kRegs.post, kRegs.launch>();
      gram_loop<M, kNorm>(ct, stages, rank, ntiles);
    }
  } else if (kPost && warp >= 12) {
    if constexpr (kPost) {
      set_warpgroup_regs<kRegs.post, kRegs.launch>();
      post_loop<M, kNorm, kD>(post, ct, stages, xs, rank, cluster_id, clusters, ntiles);
    }
  } else if constexpr (held_collapse<M>()) {
    set_warpgroup_regs<kRegs.collapse, kRegs.launch>();
    held_collapse_loop<M, kNorm, kD>(pp, ct, stages, rank, cluster_id, clusters, ntiles);
  } else if constexpr (ring_collapse<M, kNorm>()) {
    set_warpgroup_regs<kRegs.collapse, kRegs.launch>();
    ring_collapse_loop<kD>(pp, da, ct, stages, rank, cluster_id, clusters, ntiles);
  } else {
    set_warpgroup_regs<kRegs.collapse, kRegs.launch>();
    collapse_loop<M, kNorm, kD>(pp, ct, rank, cluster_id, clusters, ntiles,
                                pipeline_mhc::is_delayed(M) && da.pre_mix == nullptr);
  }
  cluster.sync();  // no CTA leaves while its shared memory may still be written
}

// A bf16 tensor map with 64-byte-swizzled boxes of 32 d x a tile's tokens: streams [T, 4, D] as 3-D (d,
// token, stream; boxes of 32 x kTile x 4: a stage), or x [T, D] as 2-D (d, token).
template <int kD>
inline int make_map(const bf16* base, int64_t tokens, bool streams, CUtensorMap& map) {
  constexpr int kHidden = kD, kTile = Geo<kD>::kTile;
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
  const cuuint64_t dims3[3] = {cuuint64_t(kHidden), cuuint64_t(tokens), cuuint64_t(kN)};
  const cuuint64_t strides3[2] = {cuuint64_t(kN) * kHidden * 2, cuuint64_t(kHidden) * 2};
  const cuuint32_t box3[3] = {cuuint32_t(kStageD), cuuint32_t(kTile), cuuint32_t(kN)};
  const cuuint64_t dims2[2] = {cuuint64_t(kHidden), cuuint64_t(tokens)};
  const cuuint64_t strides2[1] = {cuuint64_t(kHidden) * 2};
  const cuuint32_t box2[2] = {cuuint32_t(kStageD), cuuint32_t(kTile)};
  const cuuint32_t elem[3] = {1, 1, 1};
  const CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, streams ? 3 : 2, const_cast<bf16*>(base),
                            streams ? dims3 : dims2, streams ? strides3 : strides2, streams ? box3 : box2, elem,
                            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? 0 : -1;
}

template <Mode M, bool kNorm, int kD>
int launch_variant(const MhcPreParams& pp, const DelayedArgs& da, const MhcPostParams& post, cudaStream_t stream) {
  const auto kernel = mhc_tma_kernel<M, kNorm, kD>;
  constexpr size_t kSmem = smem_bytes<M, kNorm, kD>();
  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return int(e);
  LaunchAttrs attr;
  cudaLaunchConfig_t cfg =
      launch_config(unsigned(kC), unsigned(threads<M, kNorm, kD>()), unsigned(kC), kSmem, stream, attr);
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
  constexpr bool kPost = pipeline_mhc::has_post(M);
  CUtensorMap map, xmap{};
  if (make_map<kD>(kPost ? post.residual : pp.residual, pp.tokens, true, map) != 0) return -1;
  if (kPost && make_map<kD>(post.x, pp.tokens, false, xmap) != 0) return -1;
  const int64_t tiles = (pp.tokens + Geo<kD>::kTile - 1) / Geo<kD>::kTile;
  cfg.gridDim = dim3(unsigned((tiles < resident ? tiles : resident) * kC));
  return int(cudaLaunchKernelEx(&cfg, kernel, map, xmap, pp, da, post));
}

// Launches the TMA path; -1 when it does not apply (the caller then takes the pipeline kernel).
template <Mode M>
int launch(const MhcPreParams& pp, cudaStream_t stream, const DelayedArgs& da = {}) {
  static_assert(M == Mode::kPre || M == Mode::kDelayed || M == Mode::kHead,
                "mhc_pre, mhc_pre_delayed on the streams, hc_head");
  if (pp.hc_mult != kN || (pp.hidden != 4096 && pp.hidden != 7168) || pp.tokens < min_tokens(M, pp.hidden) ||
      pp.tokens > int64_t(1) << 31)
    return -1;
  const bool norm = pp.norm_weight != nullptr;
  if (!aligned16(pp.residual) || !aligned16(pp.fn) || !aligned16(pp.layer_input) ||
      (norm && !aligned16(pp.norm_weight)) || (pipeline_mhc::is_delayed(M) && da.new_pre == nullptr))
    return -1;
  if (pp.hidden == 7168) {
    if constexpr (M == Mode::kHead) {  // hc_head takes a norm only in the seam's composed path (D = 4096)
      return norm ? -1 : launch_variant<M, false, 7168>(pp, da, {}, stream);
    } else {
      return norm ? launch_variant<M, true, 7168>(pp, da, {}, stream) : launch_variant<M, false, 7168>(pp, da, {}, stream);
    }
  }
  return norm ? launch_variant<M, true, 4096>(pp, da, {}, stream) : launch_variant<M, false, 4096>(pp, da, {}, stream);
}

// mhc_post_hc_head with streams_out (the fused seam): the post applied to each stage in the ring, the
// stash stored from there, hc_head's projection and held collapse on the new streams. -1 when it does
// not apply.
inline int launch_fused_head(const MhcFusedParams& p, cudaStream_t stream) {
  const MhcPreParams& pp = p.pre;
  const MhcPostParams& post = p.post;
  if (pp.hc_mult != kN || (pp.hidden != 4096 && pp.hidden != 7168) ||
      pp.tokens < min_tokens(Mode::kFusedHead, pp.hidden) || pp.tokens > int64_t(1) << 31 || post.out == nullptr)
    return -1;
  const bool norm = pp.norm_weight != nullptr;
  if (!aligned16(post.x) || !aligned16(post.residual) || !aligned16(post.out) || !aligned16(post.post_mix) ||
      !aligned16(post.comb_mix) || !aligned16(pp.fn) || !aligned16(pp.layer_input) ||
      (norm && !aligned16(pp.norm_weight)))
    return -1;
  constexpr Mode M = Mode::kFusedHead;
  if (pp.hidden == 7168)
    return norm ? launch_variant<M, true, 7168>(pp, {}, post, stream) : launch_variant<M, false, 7168>(pp, {}, post, stream);
  return norm ? launch_variant<M, true, 4096>(pp, {}, post, stream) : launch_variant<M, false, 4096>(pp, {}, post, stream);
}

}  // namespace tma_mhc

}  // namespace dsv4::cuda
