"""mg (session 21, timing only): more warps a row for few rows (no more than SMs), picked by TOPK_MG (read once):
0 main; 1: <= 512 columns on two warps of 8 keys, 513-1024 on four of 8, 2049-4096 on four of 32; 2: 2049-4096 on
four warps of 32 keys only."""
p = "csrc/cuda/topk_warp_rows.cu"
s = open(p).read()
def rep(old, new):
    global s
    assert s.count(old) == 1, old
    s = s.replace(old, new)
rep("""  if (p.width <= 16 * kWarp) return launch<16, 1>(p, stream);
  // No more rows""", """  static const int mg = [] { const char* e = getenv("TOPK_MG"); return e ? atoi(e) : 0; }();
  int device0 = 0;
  if (const cudaError_t e = cudaGetDevice(&device0); e != cudaSuccess) return int(e);
  if (p.rows <= device_sm_count(device0)) {
    if (mg == 1 && p.width <= 16 * kWarp) return launch<8, 2>(p, stream);
    if (mg == 1 && p.width <= 32 * kWarp) return launch<8, 4>(p, stream);
    if (mg >= 1 && p.width > kWarpRowWidth && p.width <= 2 * kWarpRowWidth) return launch<32, 4>(p, stream);
  }
  if (p.width <= 16 * kWarp) return launch<16, 1>(p, stream);
  // No more rows""")
s = s.replace('#include "topk_launch.h"\n', '#include "topk_launch.h"\n\n#include <cstdlib>\n', 1)
open(p, "w").write(s)
print("patched")
