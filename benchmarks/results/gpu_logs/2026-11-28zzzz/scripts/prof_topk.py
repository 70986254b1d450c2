"""One prefill top-k shape, called 4 times (ncu profiles a later launch): prof_topk.py ROWS WIDTH K."""
import sys, torch, dsv4ext  # noqa: F401
rows, width, k = map(int, sys.argv[1:4])
logits = torch.randn(rows, width, device="cuda")
idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
starts = torch.zeros(rows, dtype=torch.int32, device="cuda")
ends = torch.full((rows,), width, dtype=torch.int32, device="cuda")
for _ in range(4):
    torch.ops.dsv4ext.top_k_per_row_prefill(logits, starts, ends, idx, k, False)
torch.cuda.synchronize()
print("done", rows, width, k)
