"""Runs the trace build's TMA ops once each after a warm-up (uncommitted helper): trace15.py "T..." D."""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
ts, d = [int(v) for v in sys.argv[1].split()], int(sys.argv[2])
for t in ts:
    for op, norm in (("hc_head", False), ("mhc_post_hc_head", True), ("mhc_post_hc_head", False)):
        a = mhc_args(op, t, d, "cuda", norm=norm)
        f = getattr(torch.ops.dsv4ext, op)
        f(*a); torch.cuda.synchronize()
        print(f"== {op} norm={norm} D={d} T={t}", flush=True)
        f(*a); torch.cuda.synchronize()
