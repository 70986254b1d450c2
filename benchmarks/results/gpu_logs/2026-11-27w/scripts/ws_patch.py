"""ws (session 23, on top of ob_patch.py): the 1024-thread kernels' picks use CUB's BLOCK_SCAN_WARP_SCANS (one block barrier:
warp scans, warp totals through shared memory) instead of the default raking scan (two barriers and a serial raking
warp), whose barrier held 60 % of the barrier stalls of a3's decode row (call 8). The 256-thread kernels keep the
raking scan (with warp scans ptxas spilled 56 bytes in the four-block kernel, 12 before)."""
import runpy
runpy.run_path("/work/main/benchmarks/results/gpu_logs/2026-11-27w/scripts/ob_patch.py")
p = "csrc/cuda/topk.cu"
s = open(p).read()
old = "  using Scan = cub::BlockScan<uint32_t, kThreads>;"
assert s.count(old) == 1
s = s.replace(old, "  using Scan = cub::BlockScan<uint32_t, kThreads,\n                               kThreads >= 1024 ? cub::BLOCK_SCAN_WARP_SCANS : cub::BLOCK_SCAN_RAKING>;")
open(p, "w").write(s)
print("patched ws")
