"""sd (uncommitted experiment): DSV4EXT_SD=1 runs decode batches on the staged engines (fn staged in shared memory
before the PDL wait: kBf16 at D = 4096, kTf32 at D = 7168) instead of the decode engines that read fn from L2 per
use, with the same decode tile spread; for A/B runs of one wheel. Same bits by design (the decode engines split fn as
the staged engine of their shape does)."""
p = "csrc/cuda/mhc_pipeline_kernel.cuh"
s = open(p).read()
old = """  if (tiles > resident) {"""
new = """  static const bool sd_env = [] { const char* e = getenv("DSV4EXT_SD"); return e != nullptr && atoi(e) != 0; }();
  if (tiles > resident || sd_env) {"""
assert s.count(old) == 1
s = s.replace(old, new)
old2 = """    if (staged_resident > 0) return run(staged, staged_smem, staged_resident, stages, kTileShift);"""
new2 = """    if (staged_resident > 0)
      return run(staged, staged_smem, staged_resident, stages,
                 tiles > staged_resident ? kTileShift : decode_tile_shift(pp.tokens, staged_resident));"""
assert s.count(old2) == 1
s = s.replace(old2, new2).replace("#include <map>\n", "#include <cstdlib>\n#include <map>\n", 1)
open(p, "w").write(s)
print("patched")
