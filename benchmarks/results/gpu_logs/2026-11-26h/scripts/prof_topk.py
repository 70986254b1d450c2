"""Runs one top-k shape a few times for ncu (uncommitted helper): prof_topk.py prefill|decode ROWS WIDTH K"""
import sys, torch, dsv4ext
kind = sys.argv[1]; rows, width, k = map(int, sys.argv[2:5])
logits = torch.randn(rows, width, device="cuda")
idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
st = torch.zeros(rows, dtype=torch.int32, device="cuda"); en = torch.full((rows,), width, dtype=torch.int32, device="cuda")
for _ in range(4):
    if kind == "prefill":
        torch.ops.dsv4ext.top_k_per_row_prefill(logits, st, en, idx, k, False)
    else:
        torch.ops.dsv4ext.top_k_per_row_decode(logits, 1, en, idx, k, False)
torch.cuda.synchronize()
