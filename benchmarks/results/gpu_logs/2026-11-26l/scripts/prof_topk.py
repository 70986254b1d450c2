"""A few top-k prefill calls of one shape for Nsight Compute (uncommitted helper): prof_topk.py ROWS WIDTH K."""
import sys, torch, dsv4ext
rows, width, k = (int(v) for v in sys.argv[1:4])
logits = torch.randn(rows, width, device="cuda")
idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
st = torch.zeros(rows, dtype=torch.int32, device="cuda"); en = torch.full((rows,), width, dtype=torch.int32, device="cuda")
for _ in range(3):
    torch.ops.dsv4ext.top_k_per_row_prefill(logits, st, en, idx, k, False)
torch.cuda.synchronize()
