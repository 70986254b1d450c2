"""A/B timing of the issue-13 top-k shapes for the wheel on PYTHONPATH (uncommitted helper): ab_topk3.py TAG [prefill|decode|all]."""
import sys, torch, dsv4ext
from dsv4ext.bench.timing import time_cuda
tag = sys.argv[1]; which = sys.argv[2] if len(sys.argv) > 2 else "all"
shapes = [("prefill", 4096, 32768, 2048), ("prefill", 8192, 8192, 512), ("prefill", 2048, 131072, 1024), ("prefill", 16384, 2048, 512),
          ("decode", 1, 65536, 2048), ("decode", 64, 65536, 2048), ("decode", 64, 262144, 2048), ("decode", 1, 262144, 2048)]
for kind, rows, width, k in shapes:
    if which != "all" and kind != which: continue
    logits = torch.randn(rows, width, device="cuda")
    idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
    if kind == "prefill":
        st = torch.zeros(rows, dtype=torch.int32, device="cuda"); en = torch.full((rows,), width, dtype=torch.int32, device="cuda")
        run = lambda det: torch.ops.dsv4ext.top_k_per_row_prefill(logits, st, en, idx, k, det)
    else:
        sl = torch.full((rows,), width, dtype=torch.int32, device="cuda")
        run = lambda det: torch.ops.dsv4ext.top_k_per_row_decode(logits, 1, sl, idx, k, det)
    g = kind == "decode"
    t = time_cuda(lambda: run(False), graph=g, inner=10 if g else 1).median
    td = time_cuda(lambda: run(True), graph=g, inner=10 if g else 1).median
    print(f"{tag:6s} {kind:7s} {rows}x{width} k={k}: {t*1e6:8.1f} us  det {td*1e6:8.1f} us", flush=True)
