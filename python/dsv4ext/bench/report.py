"""The benchmark's output: one markdown table per op, the JSON record and the bandwidth plot.

Rows are flat dicts: op, model, D, T, shape, bytes, floor_us, ours_us (+ _p10_us / _p90_us), GBps,
pct_floor, and for every baseline B that ran: B_us (+ spread) and x_B = B_us / ours_us (speed-up);
for a peer P checked against the reference also P_err ({measure: error}, bench/peer_check.py).
"""

import json
import math
from typing import Dict, List, Sequence

from . import peer_check
from .timing import fmt, markdown_table

PEER_COLUMNS = ["op", "model", "shape", "peer", "ours_us", "ours_pct_floor", "peer_us", "peer_pct_floor",
                "ours_over_peer", "peer_error", "verdict"]
PEER_HEADERS = ["op", "model", "shape", "peer", "ours µs", "ours % floor", "peer µs", "peer % floor",
                "ours/peer (> 1: peer faster)", "peer error vs reference", "peer verdict"]


def baselines(rows: Sequence[Dict]) -> List[str]:
    """Names of the baselines present in `rows` ('eager', 'compiled', peers), in first-seen order."""
    return list(dict.fromkeys(k[2:] for r in rows for k in r if k.startswith("x_")))


def tables(rows: Sequence[Dict]) -> List[str]:
    """One markdown table per op: median, p10-p90 spread, GB/s, % of the floor, speed-ups."""
    lines = []
    for op in dict.fromkeys(r["op"] for r in rows):
        op_rows = [r for r in rows if r["op"] == op]
        names = baselines(op_rows)
        shown = [{**r, "spread": f"{fmt(r['ours_p10_us'])}-{fmt(r['ours_p90_us'])}"} for r in op_rows]
        columns = ["model", "shape", "ours_us", "spread", "GBps", "pct_floor", *(f"x_{b}" for b in names)]
        headers = ["model", "shape", "median µs", "p10-p90 µs", "GB/s", "% floor", *(f"x {b}" for b in names)]
        lines += [f"### {op}", "", *markdown_table(shown, columns, headers), ""]
    return lines


def peer_rows(rows: Sequence[Dict]) -> List[Dict]:
    """One row per op, shape and peer: ours and the peer (median µs, % of the floor), ours/peer, and
    the peer's error against the reference with its verdict (WRONG outside our op's limits)."""
    out = []
    for r in rows:
        for name in baselines([r]):
            if name in ("eager", "compiled"):
                continue
            errors = r.get(f"{name}_err")
            verdict = "not checked" if errors is None else "ok" if peer_check.within_limits(errors) else "WRONG"
            out.append({"op": r["op"], "model": r["model"], "shape": r["shape"], "peer": name,
                        "ours_us": r["ours_us"], "ours_pct_floor": r["pct_floor"], "peer_us": r[f"{name}_us"],
                        "peer_pct_floor": 100 * r["floor_us"] / r[f"{name}_us"],
                        "ours_over_peer": r["ours_us"] / r[f"{name}_us"],
                        "peer_error": peer_check.describe(errors) if errors else "", "verdict": verdict})
    return out


def peer_table(rows: Sequence[Dict]) -> List[str]:
    """The markdown table of peer_rows(rows); empty when no peer ran."""
    prows = peer_rows(rows)
    return [*markdown_table(prows, PEER_COLUMNS, PEER_HEADERS), ""] if prows else []


def write_json(path: str, meta: Dict, notes: List[str], rows: List[Dict]):
    with open(path, "w") as f:
        json.dump({"meta": meta, "notes": notes, "rows": rows}, f, indent=1)


def plot(rows: Sequence[Dict], copy_gbps: float, path: str, title: str = ""):
    """Achieved GB/s vs tokens, one panel per op: ours and every baseline, one line style per model,
    the floor (the copy bandwidth) as a horizontal line. Baseline GB/s counts the same bytes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ops = list(dict.fromkeys(r["op"] for r in rows))
    ncols = min(2, len(ops))
    nrows = math.ceil(len(ops) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(6.5 * ncols, 4.2 * nrows), squeeze=False)
    styles = ["-", "--", ":", "-."]
    for ax, op in zip(axes.flat, ops):
        op_rows = [r for r in rows if r["op"] == op]
        for series, color in zip(["ours", *baselines(op_rows)], plt.rcParams["axes.prop_cycle"].by_key()["color"]):
            for model, style in zip(dict.fromkeys(r["model"] for r in op_rows), styles):
                pts = sorted((r["T"], r["GBps"] * r["ours_us"] / r[f"{series}_us"])
                             for r in op_rows if r["model"] == model and r.get(f"{series}_us"))
                if pts:
                    ax.plot(*zip(*pts), style, marker="o", ms=3, color=color, label=f"{series} ({model})")
        ax.axhline(copy_gbps, color="black", lw=1, label=f"floor: copy {copy_gbps:.0f} GB/s")
        ticks = sorted({r["T"] for r in op_rows})
        ax.set(title=op, xscale="log", yscale="log", xlabel="tokens (rows)", ylabel="achieved GB/s")
        ax.set_ylim(top=copy_gbps * 2)
        ax.set_xticks(ticks, [str(t) for t in ticks])
        ax.minorticks_off()
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=7)
    for ax in axes.flat[len(ops):]:
        ax.set_visible(False)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
