"""wg (session 21, timing only): rows of 513-2048 columns on warp groups instead of one warp a row, picked by the
environment (TOPK_WG, read once): 0 main; 1: 1025-2048 on two warps of 32 keys a lane, 513-1024 on two of 16;
2: 1025-2048 on four warps of 16 keys; 513-1024 on two of 16. More warps an SM (fewer registers a lane) and a
shorter chain a row, against the group's barriers and its repeated picks."""
p = "csrc/cuda/topk_warp_rows.cu"
s = open(p).read()
old = """  if (p.width <= 16 * kWarp) return launch<16, 1>(p, stream);
  if (p.width <= 32 * kWarp) return launch<32, 1>(p, stream);
  if (p.width <= kWarpRowWidth) return launch<64, 1>(p, stream);"""
new = """  static const int wg = [] { const char* e = getenv("TOPK_WG"); return e ? atoi(e) : 0; }();
  if (p.width <= 16 * kWarp) return launch<16, 1>(p, stream);
  if (p.width <= 32 * kWarp) return wg ? launch<16, 2>(p, stream) : launch<32, 1>(p, stream);
  if (p.width <= kWarpRowWidth) return wg == 1 ? launch<32, 2>(p, stream) : wg == 2 ? launch<16, 4>(p, stream) : launch<64, 1>(p, stream);"""
assert s.count(old) == 1
s = s.replace(old, new)
s = s.replace('#include "topk_launch.h"\n', '#include "topk_launch.h"\n\n#include <cstdlib>\n', 1)
open(p, "w").write(s)
print("patched")
