"""The clustered top-k decode paths of session 23 under compute-sanitizer: clusters of 8 and 4 exchanging 16-bit
histograms all-to-all (including slices of exactly 65535 keys), clusters of 8 pushing 32-bit bins (slices of 65536
and more) and clusters of 2; random, tied and skewed rows, windows shorter than the row; each result checked against
torch.topk's values over the window and for ascending indices. Arguments: indices of the shapes to run (all if none).
"""
import sys, torch, dsv4ext
g = torch.Generator(device="cuda").manual_seed(23)
shapes = ((1, 65536, 2048), (16, 65536 + 4100, 512), (3, 150001, 1000), (1, 8 * 65535, 2048), (1, 8 * 65535 + 1, 512),
          (64, 65536, 512))
for rows, width, k in [shapes[int(i)] for i in sys.argv[1:]] or shapes:
    lens = torch.randint(width - 3000, width + 1, (rows,), device="cuda", generator=g).to(torch.int32)
    lens[0] = width
    for kind in ("randn", "ties", "skew"):
        x = torch.randn(rows, width, device="cuda", generator=g)
        if kind == "ties":
            x = torch.randint(0, 64, (rows, width), device="cuda", generator=g).float()
        if kind == "skew":
            x[:, -width // 8:] += 3.0
        idx = torch.full((rows, k), -7, dtype=torch.int32, device="cuda")
        torch.ops.dsv4ext.top_k_per_row_decode(x, 1, lens, idx, k, True)
        torch.cuda.synchronize()
        for r in range(rows):
            n = int(lens[r])
            ref = torch.topk(x[r, :n], k).values.sort().values
            got = idx[r]
            assert bool((got >= 0).all()) and bool((got < n).all()), (rows, width, k, kind, r)
            assert torch.equal(ref, x[r, got.long()].sort().values), (rows, width, k, kind, r)
            assert bool((got[1:] > got[:-1]).all()), (rows, width, k, kind, r)
print("race23_decode done")
