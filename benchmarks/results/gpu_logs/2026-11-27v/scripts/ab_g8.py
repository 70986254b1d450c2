"""A/B of the warp-row top-k shapes with few rows (session 21): ab_g8.py TAG (rows of 4097-8192
columns, call 11). Kernel time (prefill: 5 calls a graph replay; decode: 10); each result checked against torch.topk's values and
for ascending indices."""
import sys, torch, dsv4ext
from dsv4ext.bench.timing import time_cuda
tag = sys.argv[1]
shapes = [("decode", 64, 8192, 512), ("decode", 8, 8192, 512), ("decode", 2, 8192, 2048), ("decode", 16, 6000, 1024),
          ("prefill", 100, 8192, 512), ("prefill", 500, 8192, 512), ("decode", 64, 4096, 512)]
for kind, rows, width, k in shapes:
    logits = torch.randn(rows, width, device="cuda")
    idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
    if kind == "prefill":
        st = torch.zeros(rows, dtype=torch.int32, device="cuda"); en = torch.full((rows,), width, dtype=torch.int32, device="cuda")
        run = lambda: torch.ops.dsv4ext.top_k_per_row_prefill(logits, st, en, idx, k, False)
    else:
        sl = torch.full((rows,), width, dtype=torch.int32, device="cuda")
        run = lambda: torch.ops.dsv4ext.top_k_per_row_decode(logits, 1, sl, idx, k, False)
    t = time_cuda(run, graph=True, inner=10 if kind == "decode" else 5).median
    idx.fill_(-7); run(); torch.cuda.synchronize()
    ref = torch.topk(logits, k, dim=-1).values.sort(dim=-1).values
    ok = torch.equal(ref, logits.gather(1, idx.long()).sort(dim=-1).values) and bool((idx[:, 1:] > idx[:, :-1]).all())
    print(f"{tag:5s} {kind:7s} {rows}x{width} k={k}: {t*1e6:8.2f} us ok={ok}", flush=True)
