"""The clustered top-k decode paths (session 22: the gathered pivot bin) under compute-sanitizer: clusters of 8 and 2,
random, tied and skewed rows, each result checked against torch.topk's values and for ascending indices."""
import torch, dsv4ext
g = torch.Generator(device="cuda").manual_seed(22)
for rows, width, k in ((1, 65536, 2048), (1, 262144, 512), (64, 65536, 512), (3, 65536, 1000)):
    sl = torch.full((rows,), width, dtype=torch.int32, device="cuda")
    for kind in ("randn", "ties", "skew"):
        x = torch.randn(rows, width, device="cuda", generator=g)
        if kind == "ties":
            x = torch.randint(0, 64, (rows, width), device="cuda", generator=g).float()
        if kind == "skew":
            x[:, -width // 8:] += 3.0
        idx = torch.full((rows, k), -7, dtype=torch.int32, device="cuda")
        torch.ops.dsv4ext.top_k_per_row_decode(x, 1, sl, idx, k, True)
        torch.cuda.synchronize()
        ref = torch.topk(x, k, dim=-1).values.sort(dim=-1).values
        assert torch.equal(ref, x.gather(1, idx.long()).sort(dim=-1).values), (rows, width, k, kind)
        assert bool((idx[:, 1:] > idx[:, :-1]).all()), (rows, width, k, kind)
print("race22_decode done")
