"""Decode top-k anatomy (uncommitted helper): graph-replay time per call of the clustered kernel on its trivial path
(live length <= k: indices 0..len-1 only, i.e. launch + cluster setup/exit) against full rows, for the wheel on PYTHONPATH."""
import sys, torch, dsv4ext
from dsv4ext.bench.timing import time_cuda
tag = sys.argv[1]
for rows, width in [(1, 65536), (1, 262144), (64, 65536), (64, 262144)]:
    logits = torch.randn(rows, width, device="cuda")
    for k, live in [(2048, 100), (2048, width), (64, width)]:
        idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
        sl = torch.full((rows,), live, dtype=torch.int32, device="cuda")
        run = lambda: torch.ops.dsv4ext.top_k_per_row_decode(logits, 1, sl, idx, k, False)
        t = time_cuda(run, graph=True, inner=10).median
        print(f"{tag:5s} {rows}x{width} k={k} live={live}: {t*1e6:7.2f} us", flush=True)
