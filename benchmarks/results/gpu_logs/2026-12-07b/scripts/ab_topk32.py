"""A/B kernel time (CUDA-graph replay, as bench_topk.py) of the top-k shapes a warp-row change touches, beside two block
kernel shapes as controls: ab_topk32.py TAG. Session 32 (wr_lean_write.diff)."""
import sys, torch, dsv4ext  # noqa: F401
from dsv4ext.bench.timing import time_cuda
tag = sys.argv[1]
shapes = [("prefill", 16384, 2048, 512), ("prefill", 16384, 1024, 256), ("prefill", 32768, 2048, 2047),
          ("prefill", 8192, 8192, 512), ("prefill", 4096, 32768, 2048),
          ("decode", 64, 2048, 512), ("decode", 1, 2048, 512), ("decode", 64, 4096, 512), ("decode", 1, 65536, 2048)]
torch.manual_seed(32)
for kind, rows, width, k in shapes:
    logits = torch.randn(rows, width, device="cuda")
    idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
    if kind == "prefill":
        st = torch.zeros(rows, dtype=torch.int32, device="cuda")
        en = torch.full((rows,), width, dtype=torch.int32, device="cuda")
        run = lambda det: torch.ops.dsv4ext.top_k_per_row_prefill(logits, st, en, idx, k, det)
    else:
        sl = torch.full((rows,), width, dtype=torch.int32, device="cuda")
        run = lambda det: torch.ops.dsv4ext.top_k_per_row_decode(logits, 1, sl, idx, k, det)
    inner = 10 if kind == "decode" else 5
    t = time_cuda(lambda: run(False), graph=True, inner=inner).median
    td = time_cuda(lambda: run(True), graph=True, inner=inner).median
    print(f"{tag:6s} {kind:7s} {rows}x{width} k={k}: {t * 1e6:8.1f} us  det {td * 1e6:8.1f} us", flush=True)
