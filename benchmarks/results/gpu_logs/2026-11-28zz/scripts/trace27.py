"""Runs the trace build's TMA kernels (trace27_patch.py) twice per case; CTA 0's wait accounting is printed by the kernel."""
import sys
import torch
import dsv4ext  # noqa: F401
from dsv4ext.bench.cases import mhc_args

CASES = [("mhc_pre_delayed", 16384, 7168, False), ("mhc_pre_delayed", 16384, 4096, False), ("mhc_pre", 16384, 7168, True),
         ("hc_head", 16384, 7168, True), ("hc_head", 4096, 7168, True), ("mhc_post_hc_head", 4096, 7168, True),
         ("mhc_post_hc_head", 16384, 7168, True)]
for op, t, d, norm in CASES:
    a = mhc_args(op, t, d, "cuda", norm=norm)
    f = getattr(torch.ops.dsv4ext, op)
    for rep in range(2):
        print(f"=== {op} T={t} D={d} norm={norm} rep={rep}", flush=True)
        f(*a)
        torch.cuda.synchronize()
    del a
