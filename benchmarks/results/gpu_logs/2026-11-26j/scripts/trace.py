"""Runs mhc_pre / hc_head decode 30 times back to back (uncommitted helper; the trace wheel prints
clock64 stamps of CTA 0 from each launch)."""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
for op, T in [("mhc_pre", 1), ("mhc_pre", 16), ("hc_head", 1)]:
    a = mhc_args(op, T, 4096, "cuda", norm=True); f = getattr(torch.ops.dsv4ext, op)
    for _ in range(30): f(*a)
    torch.cuda.synchronize()
    print(f"== {op} T={T} done", flush=True)
