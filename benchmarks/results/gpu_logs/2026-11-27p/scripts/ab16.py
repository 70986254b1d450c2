"""A/B kernel time (graph replay) of TMA-kernel ops (uncommitted helper): ab16.py TAG "T..." [D] [op,op..]."""
import os, sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args, mhc_floor_bytes
from dsv4ext.bench.timing import time_cuda
tag, ts = sys.argv[1], [int(v) for v in sys.argv[2].split()]
d = int(sys.argv[3]) if len(sys.argv) > 3 else 4096
only = sys.argv[4].split(",") if len(sys.argv) > 4 else None  # e.g. "mhc_pre,mhc_fused_post_pre"
bw = float(os.environ.get("AB_BW", "2.97e12"))  # the H100's copy rate; AB_BW for another machine (session 29)
OPS = (("hc_head", False), ("mhc_post_hc_head", True), ("mhc_post_hc_head", False), ("mhc_pre", True),
       ("mhc_pre", False), ("mhc_pre_delayed", False), ("mhc_pre_delayed", True),
       ("mhc_fused_post_pre", True))
for t in ts:
    row = []
    for op, norm in OPS:
        if only and op not in only:
            continue
        a = mhc_args(op, t, d, "cuda", norm=norm)
        f = getattr(torch.ops.dsv4ext, op)
        inner = 20 if t <= 64 else 5 if t <= 16384 else 2
        us = time_cuda(lambda: f(*a), graph=True, inner=inner).median * 1e6
        pct = 100 * mhc_floor_bytes(op, t, d) / bw / us * 1e6
        row.append(f"{op.replace('mhc_', '')}{'' if norm else '-nn'} {us:.1f} ({pct:.0f}%)")
        del a
    print(f"{tag:5s} D={d} T={t}:", " | ".join(row), flush=True)
