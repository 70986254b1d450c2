"""Peers side by side (GPU): ours against every importable peer (FlashInfer's mHC and top-k kernels,
CUB's batched top-k, torch.compile of the pure-torch reference; dsv4ext.bench.peers) at DeepSeek-V4
shapes. Each peer's output is checked against the reference before it is timed. Writes
benchmarks/results/peers.{md,json} (or --out DIR): per op, shape and peer, both medians, both % of the
floor, ours/peer and the peer's error.

    python3 benchmarks/bench_peers.py [--out DIR] [--tokens 1 8 ...] [--ops mhc_post ...]

mhc_pre runs without the fused RMSNorm (norm_weight None), ours too: FlashInfer's epilogue has none.
mhc_pre_delayed (DeepSeek-V4.1) runs as its model calls it: carried pre_mix, the fused norm on.
Top-k: the prefill and decode shapes of bench_topk.py, whole rows.
"""

import argparse
import os
import sys
from importlib import metadata

import torch

import dsv4ext
from bench_topk import DECODE, PREFILL
from dsv4ext.bench import cli, peer_check, peers, report
from dsv4ext.bench.cases import GRAPH_INNER_TEXT, MODELS, OPS, SWEEPS, Model, Sweep
from dsv4ext.bench.timing import copy_bandwidth, device_meta, write_results

MHC_OPS = ["mhc_post", "mhc_pre", "mhc_pre_delayed"]
TOPK_OPS = ["top_k_per_row_prefill", "top_k_per_row_decode"]
DECODE_KS = (512, 1024)  # of bench_topk's decode ks: the two models' index top-k


def plan(ops, tokens):
    """(op, model or None, rows, case builder) for every measured call."""
    for op in ops:
        if op in MHC_OPS:
            for model in MODELS.values():
                for t in tokens:
                    yield op, model, t, lambda op=op, model=model, t=t: _mhc_case(op, model, t)
        else:
            shapes = PREFILL if op == "top_k_per_row_prefill" else [s for s in DECODE if s[2] in DECODE_KS]
            for rows, width, k in shapes:
                yield op, None, rows, lambda op=op, r=rows, w=width, k=k: OPS[op].build(
                    r, Model(f"k={k}", 0, k), Sweep((r,), w, w), "cuda")


def _mhc_case(op, model, tokens):
    case = OPS[op].build(tokens, model, SWEEPS["cuda"], "cuda")
    if op == "mhc_pre":  # norm_weight off (argument 9), for ours and the peers
        case.args = case.ref_args = (*case.args[:9], None, case.args[10])
    return case


def _flashinfer_version() -> str:
    try:
        return metadata.version("flashinfer-python")
    except metadata.PackageNotFoundError:
        return "not installed"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "results"))
    ap.add_argument("--tokens", type=int, nargs="+", default=list(SWEEPS["cuda"].tokens), help="mHC token counts")
    ap.add_argument("--ops", nargs="+", choices=MHC_OPS + TOPK_OPS, default=MHC_OPS + TOPK_OPS)
    args = ap.parse_args()

    bw = copy_bandwidth()
    print(f"copy bandwidth: {bw / 1e12:.2f} TB/s (read + write)", flush=True)
    usable, notes = peers.load("cuda", args.ops)
    rows = []
    for op, model, t, build in plan(args.ops, args.tokens):
        case = build()
        rows.append(cli.measure_case(OPS[op], model, t, case, "cuda", bw, {}, usable, notes, eager=False,
                                     graph_all=True))
        print(f"{op} {case.shape}: ours {rows[-1]['ours_us']:.1f} us", flush=True)
        del case
        torch.cuda.empty_cache()
    meta = {**device_meta(), "copy_TBps": round(bw / 1e12, 3), "dsv4ext": dsv4ext.__version__,
            "flashinfer": _flashinfer_version(),
            "command": "python3 benchmarks/bench_peers.py " + " ".join(sys.argv[1:]),
            "timing": f"median of CUDA-event timings of CUDA-graph replays at every size ({GRAPH_INNER_TEXT}): "
                      "kernel time per call, ours and peers alike",
            "floor": "bytes / copy bandwidth (mHC: shared/spec/ops.md §7; top-k: one read of the logits)",
            "check": f"each peer's output vs dsv4ext.reference on its first {peer_check.CHECK_ROWS} tokens (rows) "
                     f"before timing; WRONG above {peer_check.LIMITS} (rows_wrong: rows whose values differ "
                     "from torch.topk's)",
            "mhc_pre": "norm_weight None for ours and the peers (FlashInfer's mhc_pre_big_fuse has no fused RMSNorm)"}
    write_results(args.out, "peers", meta, report.peer_rows(rows), report.PEER_COLUMNS, report.PEER_HEADERS, notes)


if __name__ == "__main__":
    main()
