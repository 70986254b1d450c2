"""`python -m dsv4ext bench`: copy bandwidth, then every selected op at DeepSeek-V4 shapes over a
token sweep, against its bandwidth floor, its pure-torch baseline (eager and torch.compile) and the
peers that are importable."""

import argparse
import importlib.util
import platform
import sys
import time
from functools import partial
from typing import Callable, Dict, List, Optional, Tuple

import torch

from .. import BACKENDS, __version__
from .. import device as device_info
from . import peer_check
from . import peers as peers_mod
from . import report
from .cases import GRAPH_MAX_TOKENS, MODELS, N, OPS, SWEEPS, Case, Model, OpSpec, graph_inner
from .timing import Timing, copy_bandwidth, time_cpu, time_cuda

BUDGET_S = 0.25  # time spent measuring one series at one shape (after warm-up)
MIN_REPS, MAX_REPS = 7, 50


def _positive_int(text: str) -> int:
    v = int(text)
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {v}")
    return v


def add_arguments(p: argparse.ArgumentParser):
    p.add_argument("--ops", nargs="+", choices=list(OPS), default=list(OPS), metavar="OP",
                   help=f"ops to time (default: all of {', '.join(OPS)})")
    p.add_argument("--model", nargs="+", choices=list(MODELS), default=list(MODELS),
                   help="DeepSeek-V4 Flash (D = 4096, top-k 512) and/or Pro (D = 7168, top-k 1024); default both")
    p.add_argument("--tokens", nargs="+", type=_positive_int,
                   help="token counts (rows for top-k and the pack); default "
                        + "; ".join(f"{d}: {' '.join(map(str, s.tokens))}" for d, s in SWEEPS.items()))
    p.add_argument("--device", choices=list(SWEEPS), help="default: cuda when usable, else cpu")
    p.add_argument("--no-compile", action="store_true", help="skip the torch.compile baseline")
    p.add_argument("--json", metavar="FILE", help="write every number, with the device and versions, as JSON")
    p.add_argument("--plot", metavar="FILE.png", help="plot achieved bandwidth vs tokens per op (matplotlib)")


def _cuda_usable() -> bool:
    return "cuda" in BACKENDS and torch.cuda.is_available()


def _sync(device: str):
    if device == "cuda":
        torch.cuda.synchronize()


def measure(fn: Callable[[], object], device: str, graph: bool, inner: int = 1) -> Timing:
    """Warm-up call (which also compiles a compiled baseline), one timed call to size the repetitions
    to BUDGET_S, then the timing: CUDA events (graph replay of `inner` calls when `graph`) or
    perf_counter."""
    fn()
    _sync(device)
    start = time.perf_counter()
    fn()
    _sync(device)
    reps = int(min(MAX_REPS, max(MIN_REPS, BUDGET_S / max(time.perf_counter() - start, 1e-9))))
    if device == "cpu":
        return time_cpu(fn, reps=reps, warmup=0)
    return time_cuda(fn, reps=reps, warmup=2, graph=graph, inner=inner if graph else 1)


def _progress(items: List, describe: Callable):
    """Iterates with a tqdm bar on stderr, or one line per item when tqdm is not installed."""
    try:
        from tqdm import tqdm
    except ImportError:
        for i, item in enumerate(items):
            print(f"[{i + 1}/{len(items)}] {describe(item)}", file=sys.stderr, flush=True)
            yield item
        return
    with tqdm(items, unit="case", file=sys.stderr, dynamic_ncols=True) as bar:
        for item in bar:
            bar.set_postfix_str(describe(item))
            yield item


def _label(item: Tuple[OpSpec, Optional[Model], int]) -> str:
    spec, model, tokens = item
    return " ".join([spec.name, *([model.name] if model else []), f"T={tokens}"])


def _add_timing(row: Dict, name: str, t: Timing):
    row.update({f"{name}_us": t.median * 1e6, f"{name}_p10_us": t.quantile(0.1) * 1e6,
                f"{name}_p90_us": t.quantile(0.9) * 1e6})


def _checked_peer(name: str, adapter: Callable, op: str, case: Case, device: str, graph: bool, inner: int,
                  row: Dict, notes: List[str]) -> Timing:
    """Runs the peer once and checks its output against the reference (row[name + '_err'], a note
    when it is outside our op's limits), then times it."""
    call = adapter(case.args)
    errors = peer_check.error(op, case.args, call())
    if errors is not None:
        row[f"{name}_err"] = errors
        if not peer_check.within_limits(errors):
            notes.append(f"peer {name}: {op} {case.shape} WRONG ({peer_check.describe(errors)})")
    return measure(call, device, graph, inner)


def measure_case(spec: OpSpec, model: Optional[Model], tokens: int, case: Case, device: str, bw: float,
                 compiled: Dict[str, Callable], peers: Dict[str, Dict], notes: List[str],
                 eager: bool = True, graph_all: bool = False) -> Dict:
    """One row: ours, the eager (unless not `eager`) and compiled baselines, the peers (checked, then
    timed). A compiled baseline or a peer that fails is noted and dropped for the rest of the run.
    On CUDA, ours and the peers are replayed from CUDA graphs up to GRAPH_MAX_TOKENS (the rest eager,
    like the torch baselines) or, with `graph_all`, at every size: kernel time, as bench_mhc.py and
    bench_topk.py measure it (bench_peers.py)."""
    graph = device == "cuda" and (graph_all or tokens <= GRAPH_MAX_TOKENS)
    inner = graph_inner(tokens)
    op = getattr(torch.ops.dsv4ext, spec.name)
    ours = measure(lambda: op(*case.args), device, graph, inner)
    floor = case.nbytes / bw
    row = {"op": spec.name, "model": model.name if model else "-", "D": model.hidden if model else None,
           "T": tokens, "shape": case.shape, "bytes": case.nbytes, "floor_us": floor * 1e6,
           "GBps": case.nbytes / ours.median / 1e9, "pct_floor": 100 * floor / ours.median}
    _add_timing(row, "ours", ours)
    baseline = spec.baseline()
    others = {"eager": (lambda: measure(lambda: baseline(*case.ref_args), device, False))} if eager else {}
    if spec.name in compiled:
        others["compiled"] = lambda: measure(lambda: compiled[spec.name](*case.ref_args), device, False)
    for name, adapters in peers.items():
        if spec.name in adapters:
            others[name] = partial(_checked_peer, name, adapters[spec.name], spec.name, case, device, graph, inner,
                                   row, notes)
    for name, timed in others.items():
        try:
            t = timed()
        except Exception as e:  # torch.compile or a peer's API failing on an op is reported, not fatal
            notes.append(f"{'' if name in ('eager', 'compiled') else 'peer '}{name}: {spec.name} failed "
                         f"({type(e).__name__}: {e})")
            (compiled if name == "compiled" else peers.get(name, {})).pop(spec.name, None)
            continue
        _add_timing(row, name, t)
        row[f"x_{name}"] = t.median / ours.median
    return row


def _command(device: str, specs: List[OpSpec], models: List[Model], tokens, no_compile: bool) -> str:
    """The command line that repeats this run."""
    return (f"python -m dsv4ext bench --device {device} --ops {' '.join(s.name for s in specs)} "
            f"--model {' '.join(m.name for m in models)} --tokens {' '.join(map(str, tokens))}"
            + (" --no-compile" if no_compile else ""))


def run(args: argparse.Namespace) -> int:
    device = args.device or ("cuda" if _cuda_usable() else "cpu")
    if device == "cuda" and not _cuda_usable():
        print(f"bench: --device cuda needs a visible GPU and the CUDA backend (built: {', '.join(BACKENDS)})",
              file=sys.stderr)
        return 2
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        print("bench: --plot needs matplotlib (pip install 'dsv4ext[bench]')", file=sys.stderr)
        return 2
    sweep = SWEEPS[device]
    tokens = args.tokens or sweep.tokens
    models = [MODELS[m] for m in dict.fromkeys(args.model)]
    specs = [OPS[o] for o in dict.fromkeys(args.ops)]
    plan = [(spec, model, t) for spec in specs for model in (models if spec.per_model else [None])
            for t in tokens if spec.max_tokens is None or t <= spec.max_tokens]
    notes = [f"{s.name}: skipped, no token count <= {s.max_tokens} in the sweep" for s in specs
             if s.max_tokens is not None and not any(t <= s.max_tokens for t in tokens)]

    bw = copy_bandwidth(device)
    print(f"{device} copy bandwidth: {bw / 1e9:.1f} GB/s (read + write)", flush=True)
    peers, peer_notes = peers_mod.load(device, [s.name for s in specs], skip={
        "torch_compile": "the `compiled` columns time the same torch.compile baseline"})
    notes += peer_notes
    compiled = {} if args.no_compile else {s.name: s.baseline(compiled=True) for s in specs}

    rows = []
    for spec, model, t in _progress(plan, _label):
        case = spec.build(t, model or models[0], sweep, device)
        rows.append(measure_case(spec, model, t, case, device, bw, compiled, peers, notes))
        del case
        if device == "cuda":
            torch.cuda.empty_cache()

    print("\n".join(report.tables(rows)))
    peer_lines = report.peer_table(rows)
    if peer_lines:
        print("\n".join(["### peers", "", *peer_lines]))
    print("\n".join(f"note: {n}" for n in notes))
    timing = ("median (p10-p90) of CUDA-event timings; ours and peers at up to "
              f"{GRAPH_MAX_TOKENS} tokens replayed from CUDA graphs ({graph_inner(GRAPH_MAX_TOKENS)} calls per "
              "replay), baselines eager" if device == "cuda" else "median (p10-p90) of time.perf_counter timings")
    meta = {**device_info.describe(device), "torch": torch.__version__, "dsv4ext": __version__,
            "python": platform.python_version(), "copy_GBps": bw / 1e9, "n": N,
            "models": {m.name: {"D": m.hidden, "index_topk": m.index_topk} for m in models},
            "command": _command(device, specs, models, tokens, args.no_compile), "timing": timing,
            "floor": "bytes / copy bandwidth; mHC: shared/spec/ops.md §7; top-k: one read of the logits; "
                     "ragged_pack: 4R + 8 nnz + 4(R+1)"}
    if args.json:
        report.write_json(args.json, meta, notes, rows)
    if args.plot:
        report.plot(rows, bw / 1e9, args.plot, title=f"dsv4ext {__version__} on {meta['device_name']}")
    return 0
