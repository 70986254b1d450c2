"""mHC benchmark (GPU): measures the copy bandwidth, then times every mHC op against the pure-torch
reference (fp32, eager and torch.compile) for D in {4096, 7168} and T in {1 .. 65536}, n = 4.
Prints and writes benchmarks/results/mhc.{md,json} (or --out DIR).

    python3 benchmarks/bench_mhc.py [--out DIR] [--tokens 1 8 ...] [--hidden 4096 7168] [--no-compile]
"""

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
from common import copy_bandwidth, device_meta, time_cuda, write_results  # noqa: E402

import dsv4ext  # noqa: E402
from dsv4ext import reference  # noqa: E402

N = 4
SCALARS = (1e-6, 1e-6, 1e-6, 2.0, 20)


def ref32(fn):
    return lambda *a, **k: fn(*a, **k, compute_dtype=torch.float32)


REF = {
    "mhc_pre": ref32(reference.mhc_pre),
    "mhc_post": ref32(reference.mhc_post),
    "mhc_fused_post_pre": ref32(reference.mhc_fused_post_pre),
    "hc_head": ref32(reference.hc_head),
}
OPS = {
    "mhc_pre": torch.ops.dsv4ext.mhc_pre,
    "mhc_post": torch.ops.dsv4ext.mhc_post,
    "mhc_fused_post_pre": torch.ops.dsv4ext.mhc_fused_post_pre,
    "hc_head": torch.ops.dsv4ext.hc_head,
}


def bytes_per_token(op: str, hidden: int) -> int:
    """The floor's bytes (shared/spec/ops.md §7): bf16 streams in and out, weights excluded."""
    return {"mhc_pre": 2 * N * hidden + 2 * hidden, "mhc_post": 2 * hidden + 4 * N * hidden,
            "mhc_fused_post_pre": 2 * hidden + 4 * N * hidden + 2 * hidden,
            "hc_head": 2 * N * hidden + 2 * hidden}[op]


def args_for(op: str, tokens: int, hidden: int, norm: bool):
    m3 = N * (N + 2)
    dev = "cuda"
    residual = torch.randn(tokens, N, hidden, device=dev).bfloat16()
    fn = torch.randn(m3, N * hidden, device=dev) / (N * hidden) ** 0.5
    sc, base = torch.randn(3, device=dev) * 0.5, torch.randn(m3, device=dev) * 0.5
    w = torch.randn(hidden, device=dev).bfloat16() if norm else None
    x = torch.randn(tokens, hidden, device=dev).bfloat16()
    post, comb = torch.rand(tokens, N, 1, device=dev), torch.rand(tokens, N, N, device=dev)
    if op == "mhc_pre":
        return (residual, fn, sc, base, *SCALARS, w, 1e-6)
    if op == "mhc_post":
        return (x, residual, post, comb)
    if op == "mhc_fused_post_pre":
        return (x, residual, post, comb, fn, sc, base, *SCALARS, w, 1e-6)
    return (residual, fn[:N], sc[:1], base[:N], 1e-6, 1e-6)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "results"))
    ap.add_argument("--tokens", type=int, nargs="+", default=[1, 8, 64, 512, 4096, 16384, 65536])
    ap.add_argument("--hidden", type=int, nargs="+", default=[4096, 7168])
    ap.add_argument("--ops", nargs="+", default=list(OPS))
    ap.add_argument("--no-compile", action="store_true", help="skip the torch.compile reference")
    ap.add_argument("--no-ref", action="store_true", help="skip the torch references entirely")
    args = ap.parse_args()

    bw = copy_bandwidth()
    print(f"copy bandwidth: {bw / 1e12:.2f} TB/s (read + write)", flush=True)
    compiled = {op: torch.compile(REF[op], dynamic=True) for op in args.ops} if not args.no_compile else {}
    rows = []
    for op in args.ops:
        for hidden in args.hidden:
            for tokens in args.tokens:
                a = args_for(op, tokens, hidden, norm=op in ("mhc_pre", "mhc_fused_post_pre"))
                graph = tokens <= 64
                t_ours = time_cuda(lambda: OPS[op](*a), graph=graph, inner=20 if graph else 1)
                floor = tokens * bytes_per_token(op, hidden) / bw
                row = {"op": op, "D": hidden, "T": tokens, "ours_us": t_ours * 1e6, "floor_us": floor * 1e6,
                       "pct_floor": 100 * floor / t_ours,
                       "GBps": tokens * bytes_per_token(op, hidden) / t_ours / 1e9}
                if not args.no_ref:
                    t_eager = time_cuda(lambda: REF[op](*a), reps=10 if tokens >= 16384 else 30)
                    row["eager_us"], row["x_eager"] = t_eager * 1e6, t_eager / t_ours
                    if op in compiled:
                        t_comp = time_cuda(lambda: compiled[op](*a), reps=10 if tokens >= 16384 else 30)
                        row["compiled_us"], row["x_compiled"] = t_comp * 1e6, t_comp / t_ours
                rows.append(row)
                print({k: (round(v, 2) if isinstance(v, float) else v) for k, v in row.items()}, flush=True)
                del a
                torch.cuda.empty_cache()
    meta = {**device_meta(), "copy_TBps": round(bw / 1e12, 3), "n": N, "dsv4ext": dsv4ext.__version__,
            "command": "python3 benchmarks/bench_mhc.py " + " ".join(sys.argv[1:]),
            "timing": "median of CUDA-event timings; T <= 64 replayed from a CUDA graph (20 calls per replay)"}
    write_results(args.out, "mhc", meta, rows,
                  ["op", "D", "T", "ours_us", "floor_us", "pct_floor", "GBps", "eager_us", "x_eager",
                   "compiled_us", "x_compiled"])


if __name__ == "__main__":
    main()
