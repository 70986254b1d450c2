"""Kernel time (graph replay, us a call) of the three fused mHC ops at D = 4096 around the compose threshold:
xcross30.py TAG "T ...". Session 30: mhc_fused_post_pre_delayed's crossing, which ab16.py does not time."""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
from dsv4ext.bench.timing import time_cuda
tag, ts = sys.argv[1], [int(v) for v in sys.argv[2].split()]
for t in ts:
    row = []
    for op in ("mhc_fused_post_pre_delayed", "mhc_fused_post_pre", "mhc_post_hc_head"):
        a = mhc_args(op, t, 4096, "cuda", norm=True)
        f = getattr(torch.ops.dsv4ext, op)
        row.append(f"{op.replace('mhc_', '')} {time_cuda(lambda: f(*a), graph=True, inner=20).median * 1e6:.1f}")
    print(f"{tag:4s} D=4096 T={t}:", " | ".join(row), flush=True)
