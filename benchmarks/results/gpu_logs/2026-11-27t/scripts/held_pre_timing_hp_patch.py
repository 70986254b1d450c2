"""hp (timing only, wrong values): mhc_pre / mhc_pre_delayed with the norm at D = 4096 on the TMA kernel's held
collapse (hc_head's: the tile stays in an 11-slot ring until its weights arrive, no L2 re-read, no load lag), with
fn's shared-memory slice cut to two B blocks that every stage and stream reuses. What a design with fn out of
shared memory (e.g. in the projection warps' registers) would run at if its projection kept the wgmma
projection's pace."""
p = "csrc/cuda/mhc_tma_kernel.cuh"
s = open(p).read()

def rep(old, new, count=1):
    global s
    assert s.count(old) == count, (old, s.count(old))
    s = s.replace(old, new)

rep("""template <Mode M>
constexpr bool held_collapse() {
  return pipeline_mhc::is_head(M);
}""", """template <Mode M, int kD = 4096>
constexpr bool held_collapse() {
  return pipeline_mhc::is_head(M) || (kD == 4096 && rows<M>() == 24 && M != Mode::kFusedHead);
}""")
rep("""template <Mode M>
constexpr int rows() {
  return pipeline_mhc::proj_rows<M>();
}""", """template <Mode M>
constexpr int rows() {
  return pipeline_mhc::proj_rows<M>();
}
template <Mode M, int kD>
constexpr bool held_pre() {  // hp: fn's slice cut to two B blocks
  return kD == 4096 && rows<M>() == 24;
}""")
rep("return !held_collapse<M>() ?", "return !held_collapse<M, kD>() ?")
rep(""": (pipeline_mhc::has_post(M) ? 10 : 11);""", """: (pipeline_mhc::has_post(M) ? 10 : 11);  // hp: 11 for the 24-row ops too""")
rep("norm_w[kNorm && held_collapse<M>() ?", "norm_w[kNorm && held_collapse<M, kD>() ?")
rep("constexpr bool kReadOnce = ring_collapse<M, kNorm>() || held_collapse<M>();",
    "constexpr bool kReadOnce = ring_collapse<M, kNorm>() || held_collapse<M, kD>();")
rep("if constexpr (kNorm && held_collapse<M>()) {", "if constexpr (kNorm && held_collapse<M, kD>()) {")
rep("} else if constexpr (held_collapse<M>()) {", "} else if constexpr (held_collapse<M, kD>()) {")
# fn's bytes: two B blocks for the held 24-row ops
rep("""  return Geo<kD>::kTf32 ? rows<M>() * fn_stride<kD>() * 4 : Geo<kD>::kSteps * kN * 2 * b_block_bytes<M>();""",
    """  return Geo<kD>::kTf32 ? rows<M>() * fn_stride<kD>() * 4
         : held_pre<M, kD>() ? 2 * b_block_bytes<M>()
                             : Geo<kD>::kSteps * kN * 2 * b_block_bytes<M>();""")
# stage_fn: only stage 0, stream 0 (blocks (0,0,0), (0,0,1))
rep("""  constexpr int kItems = kRows * kN * G::kSteps;  // (n, i, v)""",
    """  constexpr int kItems = held_pre<M, 4096>() ? kRows : kRows * kN * G::kSteps;  // (n, i, v)""")
# mma_loop: every stage and stream takes block u
rep("""          const uint64_t db = db0 + uint64_t((b_block(v, i, u) * kBBlock) >> 4);""",
    """          const uint64_t db = db0 + uint64_t((b_block(held_pre<M, 4096>() ? 0 : v, held_pre<M, 4096>() ? 0 : i, u) * kBBlock) >> 4);""")
open(p, "w").write(s)
print("patched")
