"""Decode calls after a kernel that does not trigger PDL (uncommitted helper): a graph of 20 x (a torch add on a
4 MB tensor, then the op), minus a graph of the 20 adds alone, per call. The op's prologue cannot overlap its
predecessor there (torch's kernels never trigger the dependents' launch), so this is the cost a decode call has
in a model after e.g. a GEMM. ab_serial.py TAG "T..." D [op,op..]."""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
from dsv4ext.bench.timing import time_cuda
tag, ts = sys.argv[1], [int(v) for v in sys.argv[2].split()]
d = int(sys.argv[3])
ops = sys.argv[4].split(",") if len(sys.argv) > 4 else ["hc_head", "mhc_post_hc_head", "mhc_pre", "mhc_fused_post_pre"]
buf = torch.zeros(1 << 20, device="cuda")
add = lambda: buf.add_(1.0)
base = time_cuda(add, graph=True, inner=20).median
for t in ts:
    row = []
    for op in ops:
        a = mhc_args(op, t, d, "cuda")
        f = getattr(torch.ops.dsv4ext, op)
        def pair():
            add()
            f(*a)
        us = (time_cuda(pair, graph=True, inner=20).median - base) * 1e6
        row.append(f"{op.replace('mhc_', '')} {us:.1f}")
    print(f"{tag:5s} after add D={d} T={t}:", " | ".join(row), f"(add alone {base * 1e6:.1f})", flush=True)
