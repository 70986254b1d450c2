"""Top-k and ragged-pack benchmark (GPU): ours (default and deterministic) against torch.topk on the
same rows and against the read floor (row bytes / measured copy bandwidth). Every shape is replayed
from CUDA graphs (kernel time); call_us is one eager call of ours, host dispatch included. Rows are
seeded. A decode row's time depends on its values (a row whose k-th largest key shares its first two
radix digits with a smaller key takes a third digit pass, ~2 us on the H100: ~22 % of random rows of
65536 at k = 2048, ~46 % of rows of 262144), so each decode shape is timed over DRAWS draws: ours_us
is their median, ours_max_us the slowest; deterministic_us, torch_topk_us and call_us are the first
draw's. Writes benchmarks/results/topk.{md,json} (or --out DIR).

    python3 benchmarks/bench_topk.py [--out DIR] [--pack-only]
"""

import argparse
import os
import statistics
import sys

import torch

import dsv4ext
from dsv4ext.bench.cases import TOPK_SEED as SEED, pack_floor_bytes, topk_floor_bytes
from dsv4ext.bench.timing import copy_bandwidth, device_meta, time_cuda, write_results

PREFILL = [(4096, 32768, 2048), (8192, 8192, 512), (16384, 2048, 512), (2048, 131072, 1024)]
DECODE = [(rows, width, k) for rows in (1, 8, 16, 64) for width in (65536, 262144) for k in (512, 1024, 2048)]
DRAWS = 5  # random draws a decode shape (module docstring); draw d seeded SEED + d


def bench_topk(kind: str, rows: int, width: int, k: int, bw: float):
    dev = "cuda"
    gen = torch.Generator(device=dev)
    draw = lambda d: torch.randn(rows, width, device=dev, generator=gen.manual_seed(SEED + d))  # noqa: E731
    logits = draw(0)
    idx = torch.empty(rows, k, dtype=torch.int32, device=dev)
    # Kernel time from CUDA-graph replays for both kinds (10 calls a replay for decode, 5 for prefill);
    # call_us: one eager call of ours, the host's dispatch while the GPU idles included.
    inner = 10 if kind == "decode" else 5
    if kind == "prefill":
        starts = torch.zeros(rows, dtype=torch.int32, device=dev)
        ends = torch.full((rows,), width, dtype=torch.int32, device=dev)
        run = lambda det: torch.ops.dsv4ext.top_k_per_row_prefill(logits, starts, ends, idx, k, det)  # noqa: E731
    else:
        seq_lens = torch.full((rows,), width, dtype=torch.int32, device=dev)
        run = lambda det: torch.ops.dsv4ext.top_k_per_row_decode(logits, 1, seq_lens, idx, k, det)  # noqa: E731
    t0 = time_cuda(lambda: run(False), graph=True, inner=inner).median
    t_det = time_cuda(lambda: run(True), graph=True, inner=inner).median
    t_torch = time_cuda(lambda: torch.topk(logits, k, dim=-1, sorted=False), graph=True, inner=inner).median
    t_call = time_cuda(lambda: run(False)).median
    per_draw = [t0]
    for d in range(1, DRAWS if kind == "decode" else 1):
        logits.copy_(draw(d))
        per_draw.append(time_cuda(lambda: run(False), graph=True, inner=inner).median)
    t = statistics.median(per_draw)
    floor = topk_floor_bytes(rows, width) / bw  # the read floor: row bytes / copy bandwidth (read + write counted)
    return {"op": f"top_k_per_row_{kind}", "shape": f"{rows}x{width} k={k}", "ours_us": t * 1e6,
            "ours_max_us": max(per_draw) * 1e6, "call_us": t_call * 1e6, "deterministic_us": t_det * 1e6,
            "det_ratio": t_det / t0, "torch_topk_us": t_torch * 1e6, "x_torch": t_torch / t, "floor_us": floor * 1e6,
            "x_floor": t / floor}


def bench_pack(rows: int, width: int, bw: float):
    dev = "cuda"
    gen = torch.Generator(device=dev).manual_seed(SEED)
    dense = torch.randint(0, 1 << 20, (rows, width), dtype=torch.int32, device=dev, generator=gen)
    lengths = torch.randint(0, width + 1, (rows,), dtype=torch.int32, device=dev, generator=gen)
    out = torch.empty(rows * width, dtype=torch.int32, device=dev)
    ptr = torch.empty(rows + 1, dtype=torch.int32, device=dev)
    t = time_cuda(lambda: torch.ops.dsv4ext.ragged_pack(dense, lengths, out, ptr, -1, -1), graph=True,
                  inner=10).median
    moved = pack_floor_bytes(rows, int(lengths.sum()))
    return {"op": "ragged_pack", "shape": f"{rows}x{width}", "ours_us": t * 1e6, "floor_us": moved / bw * 1e6,
            "x_floor": t / (moved / bw), "pct_copy_bw": 100 * moved / bw / t}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "results"))
    ap.add_argument("--pack-only", action="store_true", help="only the ragged_pack rows (pair with --out)")
    args = ap.parse_args()
    bw = copy_bandwidth()
    rows = [] if args.pack_only else [bench_topk("prefill", *c, bw) for c in PREFILL]
    rows += [] if args.pack_only else [bench_topk("decode", *c, bw) for c in DECODE]
    rows += [bench_pack(r, 512, bw) for r in (8192, 65536)]  # issue 13: >= 85 % of copy bandwidth
    meta = {**device_meta(), "copy_TBps": round(bw / 1e12, 3), "dsv4ext": dsv4ext.__version__,
            "command": "python3 benchmarks/bench_topk.py " + " ".join(sys.argv[1:]),
            "timing": "median of CUDA-event timings of CUDA-graph replays (10 calls per replay for decode and pack, 5 "
                      "for prefill, torch.topk alike): kernel time per call; decode: ours_us the median over "
                      f"{DRAWS} seeded random draws, ours_max_us the slowest, the other columns the first draw's; "
                      "call_us: one eager call of ours (the host's dispatch while the GPU idles included)",
            "floor": "top-k: row bytes / copy bandwidth; pack: 4R + 8 nnz + 4(R+1) bytes at the copy rate"}
    write_results(args.out, "topk", meta, rows,
                  ["op", "shape", "ours_us", "ours_max_us", "call_us", "deterministic_us", "det_ratio", "torch_topk_us",
                   "x_torch", "floor_us", "x_floor", "pct_copy_bw"])


if __name__ == "__main__":
    main()
