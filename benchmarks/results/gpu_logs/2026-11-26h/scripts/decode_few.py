"""Few-row decode top-k (push clusters of 8), graph replay per call (uncommitted helper): decode_few.py TAG."""
import sys, torch, dsv4ext
from dsv4ext.bench.timing import time_cuda
for rows, width in [(1, 65536), (8, 65536), (1, 262144), (8, 262144)]:
    for k in (512, 1024, 2048):
        logits = torch.randn(rows, width, device="cuda")
        idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
        sl = torch.full((rows,), width, dtype=torch.int32, device="cuda")
        t = time_cuda(lambda: torch.ops.dsv4ext.top_k_per_row_decode(logits, 1, sl, idx, k, False), graph=True, inner=10).median
        print(f"{sys.argv[1]:4s} {rows}x{width} k={k}: {t*1e6:6.2f} us", flush=True)
