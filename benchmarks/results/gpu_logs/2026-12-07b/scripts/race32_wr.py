"""The warp-row top-k paths wr_lean_write.diff touches, under compute-sanitizer memcheck / racecheck, each row checked
against torch.topk's values: one warp a row (many rows, 64 / 32 / 16 keys a lane), the few-row groups, every key on
the threshold and ties split (k = 2047), column-strided logits, windows shorter than k, and an `out` whose rows are not
16-byte aligned (a column offset and an odd row pitch: copy_out's entry path) as well as aligned ones."""
import torch, dsv4ext  # noqa: F401
g = torch.Generator(device="cuda").manual_seed(32)


def check(logits, idx, lens, k, rows_checked=6):
    for r in range(min(logits.shape[0], rows_checked)):
        n = int(lens[r])
        if n <= k:
            assert idx[r, :n].tolist() == list(range(n)) and (idx[r, n:] == -1).all(), r
        else:
            ref = torch.topk(logits[r, :n], k).values.sort().values
            assert torch.equal(ref, logits[r, idx[r].long()].sort().values), r
            assert (idx[r].diff() > 0).all(), r  # ascending (deterministic) and no duplicates


for rows, width, k, stride, ties in ((300, 2048, 512, 1, False), (300, 1024, 256, 2, False), (300, 512, 77, 1, False),
                                     (200, 2048, 2047, 1, True), (64, 2048, 512, 1, False), (2, 1500, 513, 1, False),
                                     (40, 700, 64, 1, True)):
    dense = torch.randn(rows, width * stride, device="cuda", generator=g)
    if ties:
        dense = dense.mul(4).round()  # many equal values: the threshold's ties split by index
    logits = dense[:, ::stride]
    lens = torch.randint(0, width + 1, (rows,), device="cuda", generator=g, dtype=torch.int32)
    lens[:4] = width
    st = torch.zeros(rows, dtype=torch.int32, device="cuda")
    for pitch, off in ((k, 0), (k + 3, 1)):  # aligned rows; rows at a 4-byte offset with an odd pitch
        buf = torch.full((rows, pitch), -7, dtype=torch.int32, device="cuda")
        idx = buf[:, off:off + k]
        torch.ops.dsv4ext.top_k_per_row_prefill(logits, st, lens, idx, k, True)
        check(logits, idx, lens, k)
        if off:
            assert (buf[:, 0] == -7).all() and (buf[:, off + k:] == -7).all()  # nothing written outside the rows
        if rows % 2 == 0:
            idx.fill_(-7)
            torch.ops.dsv4ext.top_k_per_row_decode(logits, 2, lens[1::2].contiguous(), idx, k, True)
torch.cuda.synchronize()
print("race32_wr done")
