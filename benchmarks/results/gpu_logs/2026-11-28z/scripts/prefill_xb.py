"""Prefill top-k timed under one DSV4EXT_XB setting of the experimental xb build (blocks_xb_patch.py), seeded rows
(SEED 1000 as bench_topk), every result checked against torch.topk's values and for ascending indices first. Prints
us per call (CUDA graph of 5 calls, median of replays, bench_topk's method) per shape. Argument: a label."""
import os, sys, torch, dsv4ext
from dsv4ext.bench.timing import time_cuda
label = f"{sys.argv[1] if len(sys.argv) > 1 else '?'} XB={os.environ.get('DSV4EXT_XB', '64')}"
out = []
for rows, width, k in ((4096, 32768, 2048), (8192, 8192, 512), (2048, 131072, 1024), (8192, 6000, 512),
                       (4096, 16384, 2048)):
    g = torch.Generator(device="cuda").manual_seed(1000)
    x = torch.randn(rows, width, device="cuda", generator=g)
    starts = torch.zeros(rows, dtype=torch.int32, device="cuda")
    ends = torch.full((rows,), width, dtype=torch.int32, device="cuda")
    idx = torch.full((rows, k), -7, dtype=torch.int32, device="cuda")
    torch.ops.dsv4ext.top_k_per_row_prefill(x, starts, ends, idx, k, True)
    ref = torch.topk(x, k).values.sort(dim=1).values
    got = torch.gather(x, 1, idx.long()).sort(dim=1).values
    assert torch.equal(ref, got) and bool((idx[:, 1:] > idx[:, :-1]).all()), (label, rows, width, k)
    t = time_cuda(lambda: torch.ops.dsv4ext.top_k_per_row_prefill(x, starts, ends, idx, k, False),
                  graph=True, inner=5).median * 1e6
    out.append(f"{rows}x{width} k={k} {t:7.1f}")
print(f"{label:12s} " + " | ".join(out), flush=True)
