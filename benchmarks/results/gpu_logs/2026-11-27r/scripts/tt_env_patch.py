"""tt-env (uncommitted experiment): DSV4EXT_TT=1|2|4|8|16 overrides decode_tile_shift's choice (the fewest tokens a
decode tile holds that still gives every cluster one tile), for A/B runs of one wheel."""
p = "csrc/cuda/mhc_pipeline_kernel.cuh"
s = open(p).read()
old = """inline int decode_tile_shift(int64_t tokens, int64_t resident) {
  for (int shift = 2;"""
new = """inline int decode_tile_shift(int64_t tokens, int64_t resident) {
  if (const char* e = getenv("DSV4EXT_TT")) {
    const int v = 31 - __builtin_clz(unsigned(atoi(e)));  // log2 of a power of two
    return TileMap{tokens, v}.tiles() <= resident ? v : kTileShift;
  }
  for (int shift = 2;"""
assert s.count(old) == 1
s = s.replace(old, new).replace("#include <map>\n", "#include <cstdlib>\n#include <map>\n", 1)
open(p, "w").write(s)
