"""Decode top-k through clusters of 2, 4 and 8 blocks (long slices: two stream groups in flight) for compute-sanitizer (uncommitted helper): ties across blocks
(small integers), low-bit differences, normal rows, windows ending inside a block's slice."""
import torch, dsv4ext
from dsv4ext import ops
dev = "cuda"
g = torch.Generator().manual_seed(0)
for rows, width, k, kind in [(1, 65536, 2048, "normal"), (2, 65536, 512, "ints"), (3, 262144, 1024, "normal"),
                             (4, 16512, 2048, "ints"), (4, 32768, 300, "low"), (40, 70000, 128, "normal"), (8, 65536, 2048, "low"),
                             (16, 69636, 512, "ints"), (32, 65536, 2048, "normal"), (3, 150001, 1024, "low")]:
    if kind == "normal":
        logits = torch.randn(rows, width, generator=g)
    elif kind == "ints":
        logits = torch.randint(-3, 4, (rows, width), generator=g).float()
    else:
        logits = (torch.randint(0, 1024, (rows, width), generator=g, dtype=torch.int32) | 0x3F800000).view(torch.float32)
    lens = torch.full((rows,), width, dtype=torch.int32)
    lens[1::2] = width - 1234
    idx = ops.top_k_per_row_decode(logits.to(dev), 1, lens.to(dev), k, deterministic=True)
    ref = ops.top_k_per_row_decode(logits, 1, lens, k, deterministic=True)
    assert torch.equal(idx.cpu(), ref), (rows, width, k, kind)
torch.cuda.synchronize()
print("race_cluster: ok")
