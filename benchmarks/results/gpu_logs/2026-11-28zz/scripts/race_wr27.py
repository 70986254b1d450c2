"""The warp-row top-k paths (one warp a row up to 2048 columns, groups of 2-8 warps for few or wider rows) on small
shapes, each result checked against torch.topk's values and for ascending indices; small enough for
compute-sanitizer (session 27, for wc)."""
import torch
import dsv4ext  # noqa: F401
torch.manual_seed(27)
bad = 0
for rows, width, k in ((300, 2048, 512), (300, 2048, 2047), (300, 1000, 100), (300, 500, 64), (64, 3000, 512),
                       (8, 6000, 2048), (4, 2048, 512), (2, 1024, 1000), (200, 4096, 300)):
    x = torch.randn(rows, width, device="cuda")
    x[0, : width // 2] = 1.0  # ties on a row
    if width > 8:
        x[1, 3] = float("nan")
    idx = torch.full((rows, k), -7, dtype=torch.int32, device="cuda")
    st = torch.zeros(rows, dtype=torch.int32, device="cuda")
    en = torch.full((rows,), width, dtype=torch.int32, device="cuda")
    cut = 3 if width - 3 > k else 0
    en[-1] = width - cut  # a window shorter than the row (still longer than k)
    torch.ops.dsv4ext.top_k_per_row_prefill(x, st, en, idx, k, False)
    torch.cuda.synchronize()
    xs = x.clone()
    if cut:
        xs[-1, width - cut:] = float("-inf")
    xs = torch.nan_to_num(xs, nan=float("-inf"))
    ref = torch.topk(xs, k, dim=-1).values.sort(dim=-1).values
    got = xs.gather(1, idx.long().clamp(min=0)).sort(dim=-1).values
    ok = torch.equal(ref, got) and bool((idx[:, 1:] > idx[:, :-1]).all())
    bad += not ok
    print("ran", rows, width, k, "ok" if ok else "WRONG", flush=True)
print("wrong shapes:", bad)
