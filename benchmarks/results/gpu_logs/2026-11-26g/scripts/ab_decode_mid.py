"""Decode rows on the unclustered 1024-thread kernel (graph replay of 10 calls, median us): ab_decode_mid.py TAG"""
import sys, torch, dsv4ext
from dsv4ext.bench.timing import time_cuda
tag = sys.argv[1]
for rows, width, k in [(128, 65536, 2048), (256, 32768, 2048), (96, 131072, 1024)]:
    logits = torch.randn(rows, width, device="cuda")
    idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
    sl = torch.full((rows,), width, dtype=torch.int32, device="cuda")
    t = time_cuda(lambda: torch.ops.dsv4ext.top_k_per_row_decode(logits, 1, sl, idx, k, False), graph=True, inner=10).median
    print(f"{tag:6s} decode  {rows}x{width} k={k}: {t*1e6:8.1f} us", flush=True)
