"""Prepared in session 24 for the next session: the four-block top-k kernel with more rows than blocks (so that a
block selects several rows and xr's next-row prefetch runs, including a last row with no next one), under
compute-sanitizer and plain: random and tied rows, windows of every length class (some at most k: the trivial
path, whose next row still prefetches), deterministic and default; rows spread over the batch checked against
torch.topk's values (and order when deterministic)."""
import torch, dsv4ext
g = torch.Generator(device="cuda").manual_seed(241)
for rows, width, k in ((1300, 9000, 2048), (1111, 20000, 512)):
    for kind in ("randn", "ties"):
        x = torch.randn(rows, width, device="cuda", generator=g)
        if kind == "ties":
            x = torch.randint(0, 16, (rows, width), device="cuda", generator=g).float()
        starts = torch.randint(0, 200, (rows,), device="cuda", generator=g).to(torch.int32)
        ends = (starts + torch.randint(k - 100, width - 200, (rows,), device="cuda", generator=g)).to(torch.int32)
        for det in (True, False):
            idx = torch.full((rows, k), -7, dtype=torch.int32, device="cuda")
            torch.ops.dsv4ext.top_k_per_row_prefill(x, starts, ends, idx, k, det)
            torch.cuda.synchronize()
            for r in list(range(0, rows, 97)) + [rows - 1]:
                s, e = int(starts[r]), int(ends[r])
                got = idx[r]
                if e - s <= k:
                    assert got[: e - s].tolist() == list(range(e - s)), (rows, width, kind, r)
                    continue
                ref = torch.topk(x[r, s:e], k).values.sort().values
                assert torch.equal(ref, x[r, s:e][got.long()].sort().values), (rows, width, kind, det, r)
                if det:
                    assert bool((got[1:] > got[:-1]).all()), (rows, width, kind, r)
print("race_xr done")
