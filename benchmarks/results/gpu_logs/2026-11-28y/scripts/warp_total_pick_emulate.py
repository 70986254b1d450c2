"""Session 25: warp_total_pick_patch.py's pick emulated on the CPU against the block-scan pick it replaces: for
random 2048-bin histograms (sparse, dense, all in one bin, totals below `want`), 256 and 1024 threads, both give the
same (sel_digit, sel_remaining, sel_count) and total. Lanes and shuffles are modelled per warp as the CUDA code does."""
import random

BINS, WARP = 2048, 32


def block_scan_pick(hist, threads, want):
    B = BINS // threads
    counts = [[hist[BINS - 1 - (q * B + j)] for j in range(B)] for q in range(threads)]  # ranked from the top
    flat = [c for q in counts for c in q]
    total, above, run = sum(flat), [], 0
    for c in flat:
        above.append(run)
        run += c
    rem, sel = want(total), None
    for i, c in enumerate(flat):
        if c != 0 and above[i] < rem and above[i] + c >= rem:
            sel = (BINS - 1 - i, rem - above[i], c)
    return sel, total


def warp_total_pick(hist, threads, want):
    B, warps = BINS // threads, threads // WARP
    counts = [[hist[BINS - 1 - (q * B + j)] for j in range(B)] for q in range(threads)]
    mine = [sum(c) for c in counts]
    warp_total = [sum(mine[w * WARP:(w + 1) * WARP]) for w in range(warps)]
    v = [warp_total[l] if l < warps else 0 for l in range(WARP)]
    through = v[:]
    o = 1
    while o < WARP:  # __shfl_up_sync inclusive scan
        through = [through[l] + (through[l - o] if l >= o else 0) for l in range(WARP)]
        o <<= 1
    total = through[WARP - 1]
    rem = want(total)
    reached = [l for l in range(WARP) if through[l] >= rem]
    sel = None
    if reached:
        w = reached[0]
        base = through[w] - v[w]
        lanes = [mine[w * WARP + l] for l in range(WARP)]
        incl = lanes[:]
        o = 1
        while o < WARP:
            incl = [incl[l] + (incl[l - o] if l >= o else 0) for l in range(WARP)]
            o <<= 1
        for l in range(WARP):
            q = w * WARP + l
            run = base + incl[l] - lanes[l]
            for j in range(B):
                c = counts[q][j]
                if c != 0 and run < rem and run + c >= rem:
                    sel = (BINS - 1 - (q * B + j), rem - run, c)
                run += c
    return sel, total


rng = random.Random(25)
cases = 0
for trial in range(3000):
    kind = trial % 5
    hist = [0] * BINS
    if kind == 0:  # sparse
        for _ in range(rng.randint(1, 60)):
            hist[rng.randrange(BINS)] += rng.randint(1, 50)
    elif kind == 1:  # dense
        hist = [rng.randint(0, 9) for _ in range(BINS)]
    elif kind == 2:  # one bin
        hist[rng.randrange(BINS)] = rng.randint(1, 65535)
    elif kind == 3:  # the top and the bottom bins only
        hist[0], hist[BINS - 1] = rng.randint(0, 5), rng.randint(0, 5)
    else:  # a band
        lo = rng.randrange(BINS - 100)
        for b in range(lo, lo + 100):
            hist[b] = rng.randint(0, 3)
    total = sum(hist)
    for want_k in (1, 2, max(1, total // 2), total, total + 1, rng.randint(1, total + 3)):
        for threads in (256, 1024):
            want = lambda t, k=want_k: k  # noqa: E731
            a, b = block_scan_pick(hist, threads, want), warp_total_pick(hist, threads, want)
            if a[1] != b[1] or (a[0] is not None and a[0] != b[0]) or (a[0] is None) != (b[0] is None):
                raise SystemExit(f"differ: trial {trial} kind {kind} want {want_k} threads {threads}: {a} {b}")
            cases += 1
print(f"same pick in {cases} cases")
