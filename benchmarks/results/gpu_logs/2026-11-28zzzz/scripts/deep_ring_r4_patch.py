"""r4 (session 29, prepared): the D = 4096 24-row ops without the norm (mhc_pre, mhc_pre_delayed) on a TMA ring of 4
stages (64 KB in flight, from 48) with partial / weight rings of 2 slots (from 3) to make room: on the H200 an SM's
share of the copy rate asks 56-74 KB in flight (NOTES, session 29). Run from the repository root:
python3 deep_ring_r4_patch.py (edits csrc/cuda/mhc_tma_kernel.cuh)."""
import re
p = "csrc/cuda/mhc_tma_kernel.cuh"
s = open(p).read()


def sub(old, new, count=1):
    global s
    assert s.count(old) >= count, old
    s = s.replace(old, new)


sub("""template <Mode M, int kD>
constexpr int ring_stages() {  // TMA ring slots (the fused seam's x slots take one or two)
  return !held_collapse<M>() ? (Geo<kD>::kTf32 ? 4 : 3)""",
    """// r4: D = 4096 without the norm: 4 TMA stages, room made by partial / weight rings of 2 (ctrl_ring).
template <Mode M, bool kNorm, int kD>
constexpr bool deep_ring() {
  return !held_collapse<M>() && !Geo<kD>::kTf32 && !kNorm;
}
template <Mode M, bool kNorm, int kD>
constexpr int ctrl_ring() {
  return deep_ring<M, kNorm, kD>() ? 2 : kRing;
}
template <Mode M, bool kNorm, int kD>
constexpr int ring_stages() {  // TMA ring slots (the fused seam's x slots take one or two)
  return deep_ring<M, kNorm, kD>() ? 4
         : !held_collapse<M>() ? (Geo<kD>::kTf32 ? 4 : 3)""")
s = s.replace("ring_stages<M, kD>()", "ring_stages<M, kNorm, kD>()")
s = s.replace("ring_stages<M, 4096>()", "ring_stages<M, kNorm, 4096>()")
s = s.replace("ring_stages<M, 7168>()", "ring_stages<M, kNorm, 7168>()")
s = s.replace("ring_stages<Mode::kDelayed, kD>()", "ring_stages<Mode::kDelayed, false, kD>()")
# Ctrl's rings
sub("""  uint64_t partials_full[kRing], weights_full[kRing], collapsed[kRing];
  alignas(16) float weights[kRing][Geo<kD>::kTile][8];  // pre[4], the RMSNorm scale, padding
  alignas(16) float partials[kRing][Geo<kD>::kOwned][kC][parts_stride<M, kNorm>()];""",
    """  static constexpr int kCtrlRing = ctrl_ring<M, kNorm, kD>();
  uint64_t partials_full[kCtrlRing], weights_full[kCtrlRing], collapsed[kCtrlRing];
  alignas(16) float weights[kCtrlRing][Geo<kD>::kTile][8];  // pre[4], the RMSNorm scale, padding
  alignas(16) float partials[kCtrlRing][Geo<kD>::kOwned][kC][parts_stride<M, kNorm>()];""")
# every function body that uses kRing: a local of the same name, the Ctrl's ring
lines = s.split("\n")
out = []
for i, line in enumerate(lines):
    out.append(line)
lines = out
text = "\n".join(lines)
uses = [m.start() for m in re.finditer(r"\bkRing\b", text)]
# insert `constexpr int kRing = ...` after the opening brace of each function that uses kRing in code (not comments)
funcs = ["free_partials_slot(", "void owner_loop(", "void collapse_loop(", "void ring_collapse_loop(",
         "void held_collapse_loop(", "mhc_tma_kernel("]
for f in funcs:
    k = text.find(f)
    assert k >= 0, f
    brace = text.find("{\n", k)
    ctrl = "Ctrl<Mode::kDelayed, false, kD>" if f == "void ring_collapse_loop(" else "Ctrl<M, kNorm, kD>"
    text = text[:brace + 2] + f"  constexpr int kRing = {ctrl}::kCtrlRing;  // r4\n" + text[brace + 2:]
s = text
open(p, "w").write(s)
print("r4 patched")
