"""Emulates wc's warp-row select (warp_rows_clamp_wc_patch.py) on the CPU: digits 10 / 11 / 11 from the top, passes
after the first binning min((key - prefix) >> shift, 2048), the pick from the top bin down, the early stop once every
key on the prefix is needed, and the write (key >= prefix when the prefix's keys are all taken, else key above it
plus the lowest-index keys on it). Checks the selected index set against a stable sort by (key desc, index asc) for
rows with padding keys (0), NaN (key 1), ties, +-0, +-inf and per-row magnitudes. Prints the cases and failures."""
import numpy as np

rng = np.random.default_rng(27)
BINS = 2048
SHIFT, MASK = (22, 11, 0), (0x3FF, 0x7FF, 0x7FF)


def row_key(x):
    z = (x.astype(np.float32) + np.float32(0.0)).astype(np.float32)
    u = z.view(np.uint32).astype(np.uint64)
    k = (u ^ (((u >> 31) * 0xFFFFFFFF) | 0x80000000)) & 0xFFFFFFFF
    k[np.isnan(z)] = 1
    return k.astype(np.uint64)


def select(keys, k):
    prefix, mask, remaining, on = 0, 0, k, 0
    for p in range(3):
        if on == remaining:
            break
        hist = np.zeros(BINS + 1, np.int64)
        if p == 0:
            np.add.at(hist, (keys >> 22).astype(np.int64), 1)
        else:
            b = np.minimum(((keys - prefix) & 0xFFFFFFFF) >> SHIFT[p], BINS).astype(np.int64)
            np.add.at(hist, b, 1)
        run = 0
        for d in range(BINS - 1, -1, -1):  # from the largest digit down
            if run + hist[d] >= remaining:
                break
            run += hist[d]
        remaining -= run
        on = int(hist[d])
        prefix |= d << SHIFT[p]
        mask |= MASK[p] << SHIFT[p]
    if on == remaining:
        return np.nonzero(keys >= prefix)[0]
    gt = (keys & mask) > prefix
    eq = np.nonzero((keys & mask) == prefix)[0][:remaining]
    return np.sort(np.concatenate([np.nonzero(gt)[0], eq]))


def reference(keys, k):
    order = np.lexsort((np.arange(len(keys)), -keys.astype(np.int64)))
    return np.sort(order[:k])


cases = fails = 0
for trial in range(3000):
    n = int(rng.choice([64, 500, 1024, 1500, 2048]))
    live = int(rng.integers(2, n + 1))
    k = int(rng.integers(1, live))
    kind = trial % 6
    if kind == 0:
        x = rng.standard_normal(live) * 10.0 ** rng.uniform(-30, 30)
    elif kind == 1:
        x = rng.integers(-3, 4, live).astype(np.float64)  # heavy ties, +-0
    elif kind == 2:
        x = rng.standard_normal(live); x[rng.integers(0, live, live // 10)] = np.nan
    elif kind == 3:
        x = rng.choice([np.inf, -np.inf, 0.0, -0.0, 1e-45, -1e-45, 3.4e38], live)
    elif kind == 4:
        x = np.full(live, float(rng.standard_normal())); x[rng.integers(0, live)] += 1.0
    else:
        x = rng.standard_normal(live).astype(np.float32).astype(np.float64) * 1e-40  # subnormals
    keys = np.zeros(n, np.uint64)
    keys[:live] = row_key(x)  # entries past the window: key 0 (never selected: the k-th key is >= 1)
    got, want = select(keys, k), reference(keys, k)
    cases += 1
    if len(got) != k or not np.array_equal(got, want):
        fails += 1
        if fails <= 5:
            print("FAIL", trial, n, live, k, kind, got[:10], want[:10])
print(f"{cases} rows, {fails} failures")
