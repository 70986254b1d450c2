"""One decode shape, called 8 times (ncu profiles a later launch): decode_ncu.py ROWS WIDTH K."""
import sys, torch, dsv4ext
rows, width, k = map(int, sys.argv[1:4])
logits = torch.randn(rows, width, device="cuda")
idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
sl = torch.full((rows,), width, dtype=torch.int32, device="cuda")
for _ in range(8):
    torch.ops.dsv4ext.top_k_per_row_decode(logits, 1, sl, idx, k, False)
torch.cuda.synchronize()
print("done", rows, width, k)
