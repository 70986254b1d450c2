"""top-k shapes for racecheck / synccheck (uncommitted helper): every launch shape incl. the many-row block kernels."""
import torch, dsv4ext
from dsv4ext import ops
dev = "cuda"
for rows, width, k in [(1700, 300, 32), (900, 700, 64), (1000, 2048, 512), (300, 3000, 64), (450, 8192, 1024), (6, 6000, 64),
                       (512, 6000, 128), (512, 8500, 128), (3, 20000, 256)]:
    logits = torch.randn(rows, width).to(dev)
    starts = torch.randint(0, 50, (rows,), dtype=torch.int32).to(dev)
    ends = torch.randint(0, width, (rows,), dtype=torch.int32).to(dev)
    ops.top_k_per_row_prefill(logits, starts, ends, k)
    ops.top_k_per_row_decode(logits, 1, ends, k, deterministic=True)
torch.cuda.synchronize()
print("done")
