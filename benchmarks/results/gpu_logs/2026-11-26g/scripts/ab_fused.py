"""Kernel time (median, us) and % of floor of the fused ops, norm on/off: ab_fused.py TAG "D..." "T..." """
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args, mhc_floor_bytes
from dsv4ext.bench.timing import time_cuda
tag, ds, ts = sys.argv[1], [int(v) for v in sys.argv[2].split()], [int(v) for v in sys.argv[3].split()]
bw = 2.98e12
for d in ds:
    for t in ts:
        row = []
        for op, norm in (("mhc_fused_post_pre", True), ("mhc_fused_post_pre", False),
                         ("mhc_fused_post_pre_delayed", True), ("mhc_fused_post_pre_delayed", False),
                         ("mhc_post", True), ("mhc_pre", True), ("mhc_pre_delayed", False)):
            a = mhc_args(op, t, d, "cuda", norm=norm)
            f = getattr(torch.ops.dsv4ext, op)
            us = time_cuda(lambda: f(*a)).median * 1e6
            pct = 100 * mhc_floor_bytes(op, t, d) / bw / us * 1e6
            row.append(f"{op.replace('mhc_', '').replace('fused_post_pre', 'fused')}{'' if norm else '-nn'} {us:.1f} ({pct:.0f}%)")
            del a
        print(tag, f"D={d} T={t}:", " | ".join(row), flush=True)
