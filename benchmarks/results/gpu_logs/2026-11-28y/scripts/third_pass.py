"""Session 25: which of draws.py's rows take a third radix digit, replayed on the CPU from dump_draws.py's rows
(call 3's draws.npz, 9.7 MB, not kept in the repository: rerun dump_draws.py on a GPU to get it again). The
kernel picks the k-th largest key's first digit (11 bits), then its second (11 bits); a third pass runs when
the 22-bit bin holding the k-th key has keys that are not needed (count != needed). Prints, per draw, the bin
counts and call 2's t24b time beside it. Usage: python3 third_pass.py draws.npz"""
import sys
import numpy as np

z = np.load(sys.argv[1])
# call 2, t24b round 1 (us): the same seeds
t24b = {(65536, 2048): "12.62 10.63 10.59 10.56 10.55 10.51 12.49 10.48",
        (65536, 512): "10.45 12.44 10.43 10.44 10.45 10.47 10.48 10.47",
        (262144, 2048): "14.71 16.68 14.66 14.68 16.72 16.75 16.73 16.70"}


def keys(x):
    u = x.astype(np.float32).view(np.uint32)
    return np.where(u >> 31 == 1, ~u, u | 0x80000000).astype(np.uint32)


agree = 0
for (width, k), times in t24b.items():
    for d, t in enumerate(times.split()):
        kk = np.sort(keys(z[f"r{width}_{d}"]))[::-1]
        kth = kk[k - 1]
        c = [int(np.sum((kk >> s) == (kth >> s))) for s in (21, 10)]
        m = [k - int(np.sum((kk >> s) > (kth >> s))) for s in (21, 10)]
        third = c[1] != m[1]
        agree += third == (float(t) > 11.5 if width == 65536 else float(t) > 15.5)
        print(f"1x{width} k={k} draw {d}: {t} us; first-digit bin {c[0]} keys, {m[0]} needed; "
              f"22-bit bin {c[1]}, {m[1]} needed{'; third digit' if third else ''}")
print(f"slow (> 11.5 / 15.5 us) exactly when a third digit runs: {agree} of 24 draws")
