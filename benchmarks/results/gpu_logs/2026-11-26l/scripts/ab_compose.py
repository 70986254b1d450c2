"""Fused vs composed at mid T (uncommitted helper): ab_compose.py TAG "D..." "T..." -- kernel time (graph replays of 5 calls)
of the fused ops, norm on / off."""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
from dsv4ext.bench.timing import time_cuda
tag, ds, ts = sys.argv[1], [int(v) for v in sys.argv[2].split()], [int(v) for v in sys.argv[3].split()]
for d in ds:
    for t in ts:
        row = []
        for op, norm in (("mhc_fused_post_pre", True), ("mhc_fused_post_pre", False), ("mhc_fused_post_pre_delayed", True),
                         ("mhc_fused_post_pre_delayed", False), ("mhc_post_hc_head", True), ("mhc_post_hc_head", False)):
            a = mhc_args(op, t, d, "cuda", norm=norm)
            f = getattr(torch.ops.dsv4ext, op)
            us = time_cuda(lambda: f(*a), graph=True, inner=5).median * 1e6
            row.append(f"{op.replace('mhc_', '').replace('fused_post_pre', 'fused')}{'' if norm else '-nn'} {us:6.1f}")
        print(f"{tag:5s} D={d} T={t:5d}:", " | ".join(row), flush=True)
