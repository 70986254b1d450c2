"""mhc_pre_delayed with and without the fused norm, carried and identity (kernel time, median, us)."""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args, mhc_floor_bytes
from dsv4ext.bench.timing import time_cuda
op = torch.ops.dsv4ext.mhc_pre_delayed
bw = float(sys.argv[1]) if len(sys.argv) > 1 else 2.98e12
for t in [int(x) for x in (sys.argv[2] if len(sys.argv) > 2 else "1024 4096 16384").split()]:
    a = list(mhc_args("mhc_pre_delayed", t, 4096, "cuda"))
    row = [t]
    for name, norm, carried in (("norm", True, True), ("nonorm", False, True), ("nonorm-id", False, False)):
        b = list(a)
        if not norm: b[11] = None
        if not carried: b[9] = None
        us = time_cuda(lambda: op(*b)).median * 1e6
        row.append(f"{name} {us:.1f} ({100 * mhc_floor_bytes('mhc_pre_delayed', t, 4096) / bw / us * 1e6:.0f}%)")
    print(*row, flush=True)
