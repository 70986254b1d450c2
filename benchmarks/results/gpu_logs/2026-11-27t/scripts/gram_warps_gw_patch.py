"""gw (gw2 since call 9: the projection releases a slot after its wgmma completed; gw3 since call 11: the Gram warps' squares computed before their release): at D = 4096 the fused norm's Gram matrix moves from the projection warpgroup to a fourth warpgroup of its own
(warps 12-15) in the TMA kernel's 384-thread variants (mhc_pre / mhc_pre_delayed / hc_head with the norm): the same
lane words, the same tile_squares and stage order, so the same bits; the projection pushes its rows, the Gram warps
the squares. Call 6 (ng) put the Gram's cost on the projection warpgroup at ~7 % of mhc_pre's time."""
p = "csrc/cuda/mhc_tma_kernel.cuh"
s = open(p).read()

def rep(old, new, count=1):
    global s
    assert s.count(old) == count, (old[:80], s.count(old))
    s = s.replace(old, new)

rep("""// Threads: producer + owners, the wgmma warpgroup, the collapse warpgroup, and for the fused seam
// (mhc_post_hc_head) a fourth that applies the post.
template <Mode M>
constexpr int threads() {
  return pipeline_mhc::has_post(M) ? 512 : 384;
}""", """// The fused norm's Gram matrix on a warpgroup of its own (warps 12-15) where the CTA has room for one (D = 4096,
// no post warpgroup): the projection warpgroup's 4x4 Gram on CUDA cores (~300 instructions a lane and stage beside 8
// wgmma) paced it; with the Gram removed mhc_pre ran 7 % faster (benchmarks/NOTES.md, session 20).
template <Mode M, bool kNorm, int kD>
constexpr bool gram_warps() {
  return kNorm && kD == 4096 && !pipeline_mhc::has_post(M);
}
// Threads: producer + owners, the wgmma warpgroup, the collapse warpgroup, and a fourth that applies the fused
// seam's post (mhc_post_hc_head) or sums the fused norm's Gram matrix (gram_warps).
template <Mode M, bool kNorm, int kD>
constexpr int threads() {
  return pipeline_mhc::has_post(M) || gram_warps<M, kNorm, kD>() ? 512 : 384;
}""")
rep("""struct Regs {
  int launch, owner, projection, collapse, post;
};
template <Mode M, int kD>
constexpr Regs regs() {
  return !pipeline_mhc::has_post(M) ? Regs{168, 104, 232, 168, 0}
         : kD == 4096               ? Regs{128, 112, 128, 128, 144}
                                    : Regs{128, 112, 168, 104, 128};
}
template <Mode M, int kD>
constexpr bool regs_fit() {
  constexpr Regs r = regs<M, kD>();
  return r.owner + r.projection + r.collapse + r.post <= threads<M>() / 128 * r.launch;
}
static_assert(regs_fit<Mode::kPre, 4096>() && regs_fit<Mode::kFusedHead, 4096>() && regs_fit<Mode::kFusedHead, 7168>(),
              "setmaxnreg moves registers within the CTA's launch allocation");""",
"""// With the Gram warpgroup (post: its registers) the launch has 128 a thread; the projection without the Gram keeps
// 128 and the collapse gets back its 168 from the owners and the Gram warps.
struct Regs {
  int launch, owner, projection, collapse, post;
};
template <Mode M, bool kNorm, int kD>
constexpr Regs regs() {
  return gram_warps<M, kNorm, kD>()     ? Regs{128, 104, 128, 168, 112}
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
                  regs_fit<Mode::kFusedHead, true, 4096>() && regs_fit<Mode::kFusedHead, true, 7168>(),
              "setmaxnreg moves registers within the CTA's launch allocation");""")

# The projection: no squares with the Gram warps.
rep("""      // The squares on CUDA cores while the chain is in flight (wgmma only reads the words).
      float ssq[2][kSq];
      pipeline_mhc::tile_squares<kNorm, true>(r, lane / 4, ssq);""",
"""      // The squares on CUDA cores while the chain is in flight (wgmma only reads the words), unless the Gram
      // warpgroup takes them.
      float ssq[2][kSq] = {};
      if constexpr (!kGramWarps) pipeline_mhc::tile_squares<kNorm, true>(r, lane / 4, ssq);
      // The slot may refill only once the words are used: the squares used them; without them, the wgmma's
      // completion (releasing the slot after the loads were merely issued gave tokens another stage's words
      // at T = 1536-4100, session 20 call 8).
      if constexpr (kGramWarps) wgmma_wait_all();""")
rep("""      add_stage_squares(sq, ssq, v);
    }
    push_tile(ct, rank, j, 16 * wi, acc, sq, lane);
  }
}""", """      if constexpr (!kGramWarps) add_stage_squares(sq, ssq, v);
    }
    if constexpr (kGramWarps) {
      for (int h = 0; h < 2; ++h)
        for (int q = 0; q < kSq; ++q) sq[h][q] = 0.0f;
    }
    push_tile<M, kNorm, 4096, 0, (rows<M>() + 7) / 8, !kGramWarps>(ct, rank, j, 16 * wi, acc, sq, lane);
  }
}

// The Gram warpgroup (gram_warps()): per stage the projection's lane words and tile_squares (warp wi: tokens
// 16 wi .. 16 wi + 15, as the projection warp wi), the stages in order; per tile the squares to their owners.
template <Mode M, bool kNorm>
__device__ __forceinline__ void gram_loop(Ctrl<M, kNorm, 4096>& ct, const unsigned char* stages, int rank,
                                          int ntiles) {
  constexpr int kSteps = Geo<4096>::kSteps, kStageBytes = Geo<4096>::kStageBytes;
  constexpr int kStages = ring_stages<M, 4096>();
  const int tid = threadIdx.x % 128, wi = tid / 32, lane = tid % 32;
  const uint32_t stages_u32 = smem_u32(stages);
  float none[acc_floats<M>()];  // no rows: the projection pushes them
#pragma unroll
  for (int q = 0; q < acc_floats<M>(); ++q) none[q] = 0.0f;
  for (int j = 0; j < ntiles; ++j) {
    float sq[2][kGram];
    for (int v = 0; v < kSteps; ++v) {
      const int it = j * kSteps + v, slot = it % kStages;
      mbar_wait(&ct.full[slot], (it / kStages) & 1);
      uint4 r[2][kN];
      load_lane_words<4096>(stages_u32 + slot * kStageBytes, 16 * wi, lane, r);
      float ssq[2][kGram];
      pipeline_mhc::tile_squares<kNorm, true>(r, lane / 4, ssq);
      // The slot may refill only once the words are used. Nothing ordered the squares before the release, so the
      // compiler sank them below it and a 3-slot ring refilled slots whose loads were still in flight (tokens got
      // another stage's words, session 20 call 10): the diagonal entries (every word of the lane, and through
      // the butterfly its quad's) are made operands before the arrive, and a CTA fence waits for the loads.
      asm volatile("" ::"f"(ssq[0][0]), "f"(ssq[0][1]), "f"(ssq[0][2]), "f"(ssq[0][3]), "f"(ssq[1][0]), "f"(ssq[1][1]),
                   "f"(ssq[1][2]), "f"(ssq[1][3]) : "memory");
      __threadfence_block();  // and the loads performed before the release, whatever ptxas schedules
      __syncwarp();
      if (lane == 0) mbar_arrive(&ct.empty[slot]);
      add_stage_squares(sq, ssq, v);
    }
    push_tile<M, kNorm, 4096, 0, 0, true>(ct, rank, j, 16 * wi, none, sq, lane);
  }
}""")
# kGramWarps in mma_loop
rep("""  constexpr int kAcc = acc_floats<M>();  // acc[4 jj + q]: column group jj of the fold (lanes c < 2 for hc_head)""",
    """  constexpr int kAcc = acc_floats<M>();  // acc[4 jj + q]: column group jj of the fold (lanes c < 2 for hc_head)
  constexpr bool kGramWarps = gram_warps<M, kNorm, 4096>();""")
# kernel
rep("__global__ void __launch_bounds__(threads<M>(), 1)", "__global__ void __launch_bounds__(threads<M, kNorm, kD>(), 1)")
rep("""  constexpr int kThreads = threads<M>();
  constexpr Regs kRegs = regs<M, kD>();""", """  constexpr int kThreads = threads<M, kNorm, kD>();
  constexpr Regs kRegs = regs<M, kNorm, kD>();
  constexpr bool kGramWarps = gram_warps<M, kNorm, kD>();""")
rep("""      mbar_init_count(&ct.empty[s], (G::kTf32 && rows<M>() == kN ? 2 : 4) + (kReadOnce ? 4 : 0));""",
    """      mbar_init_count(&ct.empty[s], (G::kTf32 && rows<M>() == kN ? 2 : 4) + (kReadOnce ? 4 : 0) + (kGramWarps ? 4 : 0));""")
rep("""  } else if (kPost && warp >= 12) {""", """  } else if (kGramWarps && warp >= 12) {
    if constexpr (kGramWarps) {
      asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\\n" ::"n"(kRegs.post));
      gram_loop<M, kNorm>(ct, stages, rank, ntiles);
    }
  } else if (kPost && warp >= 12) {""")
rep("""  } else if constexpr (held_collapse<M>()) {
    if constexpr (kRegs.collapse < kRegs.launch)
      asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\\n" ::"n"(kRegs.collapse));""",
    """  } else if constexpr (held_collapse<M>()) {
    if constexpr (kRegs.collapse < kRegs.launch)
      asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\\n" ::"n"(kRegs.collapse));
    if constexpr (kRegs.collapse > kRegs.launch)
      asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\\n" ::"n"(kRegs.collapse));""")
rep("""  } else if constexpr (ring_collapse<M, kNorm>()) {
    ring_collapse_loop<kD>(pp, da, ct, stages, rank, cluster_id, clusters, ntiles);
  } else {
    collapse_loop""", """  } else if constexpr (ring_collapse<M, kNorm>()) {
    ring_collapse_loop<kD>(pp, da, ct, stages, rank, cluster_id, clusters, ntiles);
  } else {
    if constexpr (kRegs.collapse > kRegs.launch)
      asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\\n" ::"n"(kRegs.collapse));
    collapse_loop""")
rep("cudaLaunchConfig_t cfg = launch_config(unsigned(kC), unsigned(threads<M>()), unsigned(kC), kSmem, stream, attr);",
    "cudaLaunchConfig_t cfg = launch_config(unsigned(kC), unsigned(threads<M, kNorm, kD>()), unsigned(kC), kSmem, stream, attr);")
open(p, "w").write(s)
print("patched")
