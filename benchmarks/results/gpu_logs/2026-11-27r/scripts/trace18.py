"""Drives the pipeline kernel's %globaltimer trace build (trace_patch18.py; uncommitted helper): trace18.py D. Per op and
T: a CUDA graph of 4 calls replayed twice, each replay followed by a dump call (T = 3) that prints the stored stamps;
then summarises them (the second replay): us from the call's first CTA entry, median / max over the CTAs."""
import os, subprocess, sys, statistics as st
NAMES = ["entry", "pdl_wait", "tile_posted", "pushed", "owner_in", "w_pushed", "w_in", "coll_stored", "end"]
if len(sys.argv) > 2:  # summarise a log
    blocks = []
    for line in open(sys.argv[2]):
        if line.startswith("=="):
            blocks.append((line.strip(), []))
        elif line.startswith("TS") and blocks:
            v = line.split(); blocks[-1][1].append((int(v[1]), [int(x) for x in v[3:]]))
    for head, rows in blocks:
        if "replay 1" not in head:
            continue
        print(head)
        prev_end = None
        for c in sorted({r[0] for r in rows}):
            cr = [r[1] for r in rows if r[0] == c]
            t0 = min(x[0] for x in cr)
            parts = [f"{n} {st.median(v):.2f}/{max(v):.2f}" for k, n in enumerate(NAMES)
                     if (v := [(x[k] - t0) / 1e3 for x in cr if x[k]])]
            gap = f"{(t0 - prev_end) / 1e3:+.2f}" if prev_end else "-"
            print(f"  call {c} ({len(cr)} CTAs, gap {gap}) " + " | ".join(parts))
            prev_end = max(x[8] for x in cr)
    sys.exit(0)
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
d = int(sys.argv[1])
for op, norm in (("mhc_post_hc_head", True), ("hc_head", False), ("mhc_pre", True)):
    for t in (1, 4, 16):
        f = getattr(torch.ops.dsv4ext, op)
        a, dump = mhc_args(op, t, d, "cuda", norm=norm), mhc_args(op, 3, d, "cuda", norm=norm)
        f(*a); f(*dump); torch.cuda.synchronize()
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
