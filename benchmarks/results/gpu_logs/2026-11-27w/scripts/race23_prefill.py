"""The block top-k kernels (many rows: 256-thread blocks, six an SM up to 8192 columns, four past it) under
compute-sanitizer, for ordered_bases' warp reductions (session 23): random and tied rows, windows of every length
class, deterministic and default; the first rows checked against torch.topk's values (and order when deterministic).
run() takes other shapes, windows and checked rows (session 24's race_xr.py); run as a script it does the above."""
import torch, dsv4ext


def run(shapes=((520, 9000, 2048), (520, 6000, 512)), seed=231, shortest=lambda k: k - 1, checked=lambda rows: range(6),
        name="race23_prefill"):
    g = torch.Generator(device="cuda").manual_seed(seed)
    for rows, width, k in shapes:
        for kind in ("randn", "ties"):
            x = torch.randn(rows, width, device="cuda", generator=g)
            if kind == "ties":
                x = torch.randint(0, 16, (rows, width), device="cuda", generator=g).float()
            starts = torch.randint(0, 200, (rows,), device="cuda", generator=g).to(torch.int32)
            lens = torch.randint(shortest(k), width - 200, (rows,), device="cuda", generator=g)
            ends = (starts + lens).to(torch.int32)
            for det in (True, False):
                idx = torch.full((rows, k), -7, dtype=torch.int32, device="cuda")
                torch.ops.dsv4ext.top_k_per_row_prefill(x, starts, ends, idx, k, det)
                torch.cuda.synchronize()
                for r in checked(rows):
                    s, e = int(starts[r]), int(ends[r])
                    got = idx[r]
                    if e - s <= k:
                        assert got[: e - s].tolist() == list(range(e - s)), (rows, width, kind, r)
                        continue
                    ref = torch.topk(x[r, s:e], k).values.sort().values
                    assert torch.equal(ref, x[r, s:e][got.long()].sort().values), (rows, width, kind, det, r)
                    if det:
                        assert bool((got[1:] > got[:-1]).all()), (rows, width, kind, r)
    print(f"{name} done")


if __name__ == "__main__":
    run()
