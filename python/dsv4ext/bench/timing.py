"""Timing and result writing shared by `python -m dsv4ext bench` and benchmarks/bench_*.py.

CUDA: medians of CUDA-event timings, optionally replaying the call from a CUDA graph (launch gaps of
tiny calls mostly hidden). CPU: medians of time.perf_counter timings. The copy bandwidth of the
device (bytes read plus bytes written per second) sets every bandwidth floor.
"""

import json
import os
import statistics
import time
from dataclasses import dataclass
from typing import Callable, Dict, List, Sequence, Tuple

import torch


@dataclass(frozen=True)
class Timing:
    """Seconds per call, one sample per repetition."""

    samples: Tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    def quantile(self, q: float) -> float:
        """Linear interpolation between the sorted samples (q in [0, 1])."""
        s = sorted(self.samples)
        pos = q * (len(s) - 1)
        lo = int(pos)
        hi = min(lo + 1, len(s) - 1)
        return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def time_cuda(fn: Callable[[], object], reps: int = 50, warmup: int = 5, graph: bool = False,
              inner: int = 1) -> Timing:
    """CUDA-event time per call. With graph=True the call is captured `inner` times in a CUDA graph
    and each replay's time divided by `inner`."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    run = fn
    if graph:
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            fn()
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for _ in range(inner):
                fn()
        run = g.replay
        run()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        run()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3 / (inner if graph else 1))
    return Timing(tuple(times))


def time_cuda_after(fn: Callable[[], object], before: Callable[[], object], inner: int = 20, reps: int = 50) -> float:
    """Seconds per call of `fn` when each call follows `before`, in CUDA-graph replays: a graph of `inner`
    x (before, fn) minus one of `inner` x before. With `before` a kernel that does not trigger programmatic
    dependent launch (torch's kernels do not), fn's prologue cannot overlap its predecessor, as after a GEMM in a
    model's step; back to back (time_cuda with graph=True) it overlaps the previous call of fn."""
    def both():
        before()
        fn()

    pair = time_cuda(both, reps=reps, graph=True, inner=inner).median
    alone = time_cuda(before, reps=reps, graph=True, inner=inner).median
    return pair - alone


def time_cpu(fn: Callable[[], object], reps: int = 20, warmup: int = 1) -> Timing:
    """Wall-clock time per call of a CPU function (time.perf_counter)."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return Timing(tuple(times))


COPY_BYTES = {"cuda": 2 << 30, "cpu": 512 << 20}  # read + write, far beyond the last-level cache


def copy_bandwidth(device: str = "cuda") -> float:
    """Bytes per second of a large copy on `device`, counting bytes read plus bytes written."""
    nbytes = COPY_BYTES[device]
    src = torch.empty(nbytes // 2, dtype=torch.uint8, device=device)
    dst = torch.empty_like(src)
    copy = lambda: dst.copy_(src)  # noqa: E731
    t = time_cuda(copy, reps=20) if device == "cuda" else time_cpu(copy, reps=10)
    return nbytes / t.median


def fmt(v) -> str:
    """Three significant digits, integers for values >= 1000; None as an empty cell."""
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}"
    return str(v)


def markdown_table(rows: Sequence[Dict], columns: Sequence[str], headers: Sequence[str] = ()) -> List[str]:
    """Rows as a markdown table (missing cells empty); `headers` renames the columns."""
    lines = ["| " + " | ".join(headers or columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(fmt(r.get(c)) for c in columns) + " |" for r in rows]
    return lines


def write_results(out_dir: str, name: str, meta: Dict, rows: List[Dict], columns: List[str],
                  headers: Sequence[str] = (), notes: Sequence[str] = ()):
    """Writes out_dir/name.json ({meta, rows[, notes]}) and out_dir/name.md (meta list, table, notes),
    prints the latter."""
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, f"{name}.json"), "w") as f:
        json.dump({"meta": meta, "rows": rows, **({"notes": list(notes)} if notes else {})}, f, indent=1)
    lines = [f"# {name}", "", *(f"- {k}: {v}" for k, v in meta.items()), "", *markdown_table(rows, columns, headers)]
    if notes:
        lines += ["", "Notes:", "", *(f"- {n}" for n in notes)]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out_dir, f"{name}.md"), "w") as f:
        f.write(text)
    print(text)


def device_meta() -> Dict:
    """The GPU the benchmark scripts ran on (device 0) and the torch build."""
    p = torch.cuda.get_device_properties(0)
    return {"gpu": p.name, "sms": p.multi_processor_count, "torch": torch.__version__, "cuda": torch.version.cuda}
