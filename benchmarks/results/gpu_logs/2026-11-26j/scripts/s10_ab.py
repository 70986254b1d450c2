"""A/B decode timing (uncommitted helper): s10_ab.py TAG GROUP; GROUP in mhc, mhc7, topk."""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
from dsv4ext.bench.timing import time_cuda
tag, group = sys.argv[1], sys.argv[2]
if group == "mid":
    for op, norm in [("mhc_pre", True), ("mhc_pre_delayed", True), ("mhc_pre_delayed", False), ("hc_head", True),
                     ("mhc_post", True), ("mhc_fused_post_pre", True), ("mhc_post_hc_head", True)]:
        for tokens in (512, 4096, 16384):
            a = mhc_args(op, tokens, 4096, "cuda", norm=norm)
            f = getattr(torch.ops.dsv4ext, op)
            t = time_cuda(lambda: f(*a), graph=True, inner=5).median
            print(f"{tag:5s} {op + ('' if norm else ' (no norm)'):28s} D=4096 T={tokens:5d}: {t*1e6:8.2f} us", flush=True)
elif group.startswith("mhc"):
    hidden = 7168 if group == "mhc7" else 4096
    for op in ["mhc_pre", "mhc_pre_delayed", "mhc_fused_post_pre", "hc_head", "mhc_post_hc_head", "mhc_post"]:
        for tokens in (1, 16, 64):
            a = mhc_args(op, tokens, hidden, "cuda", norm=True)
            f = getattr(torch.ops.dsv4ext, op)
            t = time_cuda(lambda: f(*a), graph=True, inner=20).median
            print(f"{tag:5s} {op:20s} D={hidden} T={tokens:3d}: {t*1e6:6.2f} us", flush=True)
else:
    for rows, width, k in [(1, 65536, 2048), (8, 65536, 2048), (16, 65536, 2048), (64, 65536, 2048), (1, 262144, 2048),
                           (8, 262144, 2048), (16, 262144, 2048), (64, 262144, 2048), (64, 262144, 512)]:
        logits = torch.randn(rows, width, device="cuda"); idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
        sl = torch.full((rows,), width, dtype=torch.int32, device="cuda")
        run = lambda: torch.ops.dsv4ext.top_k_per_row_decode(logits, 1, sl, idx, k, False)
        t = time_cuda(run, graph=True, inner=10).median
        run(); torch.cuda.synchronize()
        ref = torch.topk(logits, k, dim=-1).values.sort(dim=-1).values
        ok = torch.equal(ref, logits.gather(1, idx.long()).sort(dim=-1).values)
        print(f"{tag:5s} decode {rows}x{width} k={k}: {t*1e6:6.2f} us ok={ok}", flush=True)
