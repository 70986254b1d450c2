"""Decode top-k timed over several random draws (session 25): a row's time depends on its values, because a
draw whose k-th largest key shares its first two radix digits with a key below it takes a third digit pass
(~22 % of randn rows of 65536 at k = 2048, ~46 % of rows of 262144). The same seeds for every wheel; each draw
checked against torch.topk's values and for ascending indices. Prints us per call (CUDA graph of 10 calls,
median of replays) per draw, and the median and max over the draws. Run with a wheel on PYTHONPATH;
argument: a label."""
import sys, statistics, torch, dsv4ext
from dsv4ext.bench.timing import time_cuda
label = sys.argv[1] if len(sys.argv) > 1 else "?"
for rows, width, k in ((1, 65536, 2048), (1, 65536, 512), (1, 262144, 2048), (64, 65536, 2048), (64, 262144, 2048)):
    sl = torch.full((rows,), width, dtype=torch.int32, device="cuda")
    idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
    ts = []
    for d in range(8):
        g = torch.Generator(device="cuda").manual_seed(1000 + d)
        x = torch.randn(rows, width, device="cuda", generator=g)
        torch.ops.dsv4ext.top_k_per_row_decode(x, 1, sl, idx, k, True)
        ref = torch.topk(x, k).values.sort(dim=1).values
        got = torch.gather(x, 1, idx.long()).sort(dim=1).values
        assert torch.equal(ref, got) and bool((idx[:, 1:] > idx[:, :-1]).all()), (label, rows, width, k, d)
        ts.append(time_cuda(lambda: torch.ops.dsv4ext.top_k_per_row_decode(x, 1, sl, idx, k, False),
                            graph=True, inner=10).median * 1e6)
    print(f"{label:5s} {rows}x{width} k={k}: median {statistics.median(ts):6.2f} max {max(ts):6.2f} us;"
          f" draws {' '.join(f'{t:.2f}' for t in ts)}", flush=True)
