"""A/B of the clustered top-k decode shapes (session 22): ab_decode.py TAG. Kernel time per call (CUDA-graph replay of 10
calls); each result checked against torch.topk's values and for ascending indices, also on inputs with heavy ties
(integers in [0, 64): the pivot bin's ties span blocks) and on a row whose large values sit in its last slice."""
import sys, torch, dsv4ext
from dsv4ext.bench.timing import time_cuda
tag = sys.argv[1]
shapes = [(1, 65536, 2048), (1, 65536, 512), (1, 65536, 1024), (1, 262144, 2048), (1, 262144, 512), (8, 65536, 2048),
          (16, 65536, 2048), (64, 65536, 2048), (64, 65536, 512), (8, 262144, 2048), (64, 262144, 2048), (64, 262144, 512)]
g = torch.Generator(device="cuda").manual_seed(22)
def check(logits, idx, k):
    ref = torch.topk(logits, k, dim=-1).values.sort(dim=-1).values
    return torch.equal(ref, logits.gather(1, idx.long()).sort(dim=-1).values) and bool((idx[:, 1:] > idx[:, :-1]).all())
for rows, width, k in shapes:
    logits = torch.randn(rows, width, device="cuda", generator=g)
    idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
    sl = torch.full((rows,), width, dtype=torch.int32, device="cuda")
    run = lambda: torch.ops.dsv4ext.top_k_per_row_decode(logits, 1, sl, idx, k, False)
    t = time_cuda(run, graph=True, inner=10).median
    idx.fill_(-7); run(); torch.cuda.synchronize()
    ok = check(logits, idx, k)
    ties = torch.randint(0, 64, (rows, width), device="cuda", generator=g).float()
    skew = torch.randn(rows, width, device="cuda", generator=g); skew[:, -width // 8:] += 3.0
    oks = []
    for x in (ties, skew):
        idx.fill_(-7); torch.ops.dsv4ext.top_k_per_row_decode(x, 1, sl, idx, k, False); torch.cuda.synchronize()
        oks.append(check(x, idx, k))
    print(f"{tag:5s} {rows}x{width} k={k}: {t*1e6:8.2f} us ok={ok} ties_ok={oks[0]} skew_ok={oks[1]}", flush=True)
