"""Drives the %globaltimer trace build (trace_patch16.py; uncommitted helper): trace16.py T D. Per op: a CUDA graph of
4 calls at T tokens replayed twice, each replay followed by a dump call (T = 4033) that prints the stored stamps."""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
t, d = int(sys.argv[1]), int(sys.argv[2])
for op, norm in (("hc_head", False), ("mhc_post_hc_head", True), ("mhc_pre_delayed", False), ("mhc_pre", True)):
    f = getattr(torch.ops.dsv4ext, op)
    a, dump = mhc_args(op, t, d, "cuda", norm=norm), mhc_args(op, 4033, d, "cuda", norm=norm)
    f(*a); f(*a); f(*dump); torch.cuda.synchronize()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        f(*a); torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g, stream=s):
            for _ in range(4):
                f(*a)
    for rep in range(2):
        g.replay(); torch.cuda.synchronize()
        print(f"== {op} norm={norm} D={d} T={t} replay {rep}", flush=True)
        f(*dump); torch.cuda.synchronize()
    del g, a, dump
