"""Summarises trace16.py's log (uncommitted helper): parse16.py LOG [NAME8,NAME9,NAME10] (the names of the
stamps past the eighth, which each trace patch sets: trace_patch16b.py's by default). Per op, the second replay's 4 calls: us from
the call's first CTA entry (median / max over CTAs), and the gap from the previous call's last exit."""
import sys, statistics as st
blocks, head, out = [], None, []
for line in open(sys.argv[1]):
    if line.startswith("=="):
        head = line.strip(); blocks.append((head, []))
    elif line.startswith("TS") and blocks:
        v = line.split(); blocks[-1][1].append((int(v[1]), int(v[2]), [int(x) for x in v[3:]]))
names = ["entry", "pdl_wait", "fn_staged", "first_stage", "last_issue", "last_push", "last_warp", "exit"] + (
    sys.argv[2].split(",") if len(sys.argv) > 2 else ["item0_done", "parts_stored", "fence_done"])
for head, rows in blocks:
    if "replay 1" not in head:
        continue
    print(head)
    prev_exit = None
    for c in sorted({r[0] for r in rows}):
        cr = [r[2] for r in rows if r[0] == c]
        t0 = min(x[0] for x in cr)
        parts = []
        for k, n in enumerate(names):
            vals = [(x[k] - t0) / 1e3 for x in cr if k < len(x) and x[k]]
            if vals:
                parts.append(f"{n} {st.median(vals):.1f}/{max(vals):.1f}")
        gap = f"gap {(t0 - prev_exit) / 1e3:+.1f}" if prev_exit else "gap    -"
        print(f"  call {c} ({len(cr)} CTAs) {gap} | " + " | ".join(parts))
        prev_exit = max(x[7] for x in cr)
        ends = sorted((x[7] - t0) / 1e3 for x in cr)
        print(f"     exits: min {ends[0]:.1f} p50 {st.median(ends):.1f} max {ends[-1]:.1f}; entries max {max((x[0]-t0)/1e3 for x in cr):.1f}")
