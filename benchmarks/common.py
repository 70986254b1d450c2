"""Timing helpers shared by the benchmarks: CUDA-event medians, CUDA-graph replay for small
launches, the device's measured copy bandwidth, and result writing (markdown + JSON)."""

import json
import statistics
from typing import Callable, Dict, List

import torch


def time_cuda(fn: Callable[[], object], reps: int = 50, warmup: int = 5, graph: bool = False,
              inner: int = 1) -> float:
    """Median seconds per call. With graph=True the call is captured `inner` times in a CUDA graph
    and the replay time divided by `inner` (launch gaps of tiny calls mostly hidden)."""
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
    return statistics.median(times)


def copy_bandwidth(nbytes: int = 2 << 30) -> float:
    """Bytes per second of a large device-to-device copy, counting bytes read plus bytes written."""
    src = torch.empty(nbytes // 2, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    t = time_cuda(lambda: dst.copy_(src), reps=20)
    return nbytes / t


def write_results(out_dir: str, name: str, meta: Dict, rows: List[Dict], columns: List[str]):
    import os

    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, f"{name}.json"), "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    lines = [f"# {name}", "", *(f"- {k}: {v}" for k, v in meta.items()), "",
             "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for r in rows:
        lines.append("| " + " | ".join(_fmt(r.get(c, "")) for c in columns) + " |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out_dir, f"{name}.md"), "w") as f:
        f.write(text)
    print(text)


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}"
    return str(v)


def device_meta() -> Dict:
    p = torch.cuda.get_device_properties(0)
    return {"gpu": p.name, "sms": p.multi_processor_count, "torch": torch.__version__,
            "cuda": torch.version.cuda}
