"""mHC benchmark (GPU): measures the copy bandwidth, then times every mHC op against the pure-torch
reference (fp32, eager and torch.compile) for D in {4096, 7168} and T in {1 .. 65536}, n = 4. Our
kernel time comes from CUDA-graph replays at every T; call_us is one eager call, host dispatch included;
after_add_us (T <= 64) is the kernel time per call when each call follows a torch add, which (like a GEMM in a
model's decode step) does not trigger programmatic dependent launch, so the op's prologue cannot overlap it.
Prints and writes benchmarks/results/mhc.{md,json} (or --out DIR).

    python3 benchmarks/bench_mhc.py [--out DIR] [--tokens 1 8 ...] [--hidden 4096 7168] [--no-compile]
"""

import argparse
import os
import sys

import torch

import dsv4ext
from dsv4ext.bench.cases import (GRAPH_INNER_TEXT, N, OPS as SPECS, graph_inner, mhc_args, mhc_floor_bytes,
                                 mhc_ref_args)
from dsv4ext.bench.timing import copy_bandwidth, device_meta, time_cuda, time_cuda_after, write_results

MHC_OPS = ["mhc_pre", "mhc_pre_delayed", "mhc_post", "mhc_fused_post_pre", "mhc_fused_post_pre_delayed", "hc_head",
           "mhc_post_hc_head"]
REF = {op: SPECS[op].baseline() for op in MHC_OPS}  # dsv4ext.reference in float32
OPS = {op: getattr(torch.ops.dsv4ext, op) for op in MHC_OPS}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "results"))
    ap.add_argument("--tokens", type=int, nargs="+", default=[1, 8, 64, 512, 4096, 16384, 65536])
    ap.add_argument("--hidden", type=int, nargs="+", default=[4096, 7168])
    ap.add_argument("--ops", nargs="+", choices=MHC_OPS, default=MHC_OPS)
    ap.add_argument("--no-compile", action="store_true", help="skip the torch.compile reference")
    ap.add_argument("--no-ref", action="store_true", help="skip the torch references entirely")
    args = ap.parse_args()

    bw = copy_bandwidth()
    print(f"copy bandwidth: {bw / 1e12:.2f} TB/s (read + write)", flush=True)
    compiled = {op: SPECS[op].baseline(compiled=True) for op in args.ops} if not args.no_compile else {}
    rows = []
    pad = torch.zeros(1 << 20, device="cuda")  # the predecessor of after_add_us: a 4 MB torch add
    # mhc_pre_delayed also without the fused norm: its collapse then reads the residual once (the TMA
    # kernel's ring collapse), a different kernel path from the normed one.
    variants = [(op, norm) for op in args.ops for norm in ((True, False) if op == "mhc_pre_delayed" else (True,))]
    for op, norm in variants:
        for hidden in args.hidden:
            for tokens in args.tokens:
                a = mhc_args(op, tokens, hidden, "cuda", norm=norm)
                ra = mhc_ref_args(op, a)
                # Kernel time: every size replayed from a CUDA graph (graph_inner calls a replay), so that the
                # floor is compared with device time; a single eager call also counts the host's dispatch while
                # the GPU idles (call_us).
                inner = graph_inner(tokens)
                t_ours = time_cuda(lambda: OPS[op](*a), graph=True, inner=inner).median
                t_call = time_cuda(lambda: OPS[op](*a), reps=20 if tokens >= 16384 else 50).median
                nbytes = mhc_floor_bytes(op, tokens, hidden)
                floor = nbytes / bw
                row = {"op": op if norm else f"{op} (no norm)", "D": hidden, "T": tokens, "ours_us": t_ours * 1e6,
                       "call_us": t_call * 1e6, "floor_us": floor * 1e6, "pct_floor": 100 * floor / t_ours,
                       "GBps": nbytes / t_ours / 1e9}
                if tokens <= 64:
                    row["after_add_us"] = time_cuda_after(lambda: OPS[op](*a), lambda: pad.add_(1.0)) * 1e6
                if not args.no_ref:
                    t_eager = time_cuda(lambda: REF[op](*ra), reps=10 if tokens >= 16384 else 30).median
                    row["eager_us"], row["x_eager"] = t_eager * 1e6, t_eager / t_ours
                    if op in compiled:
                        t_comp = time_cuda(lambda: compiled[op](*ra), reps=10 if tokens >= 16384 else 30).median
                        row["compiled_us"], row["x_compiled"] = t_comp * 1e6, t_comp / t_ours
                rows.append(row)
                print({k: (round(v, 2) if isinstance(v, float) else v) for k, v in row.items()}, flush=True)
                del a, ra
                torch.cuda.empty_cache()
    meta = {**device_meta(), "copy_TBps": round(bw / 1e12, 3), "n": N, "dsv4ext": dsv4ext.__version__,
            "command": "python3 benchmarks/bench_mhc.py " + " ".join(sys.argv[1:]),
            "timing": f"median of CUDA-event timings of CUDA-graph replays ({GRAPH_INNER_TEXT}): kernel time per "
                      "call; call_us: one eager call (the host's dispatch while the GPU idles included); "
                      "after_add_us: 20 x (a torch add, the op) in a graph minus 20 adds, per call (the op's "
                      "prologue cannot overlap a predecessor that does not trigger PDL)"}
    write_results(args.out, "mhc", meta, rows,
                  ["op", "D", "T", "ours_us", "after_add_us", "call_us", "floor_us", "pct_floor", "GBps", "eager_us",
                   "x_eager", "compiled_us", "x_compiled"])


if __name__ == "__main__":
    main()
