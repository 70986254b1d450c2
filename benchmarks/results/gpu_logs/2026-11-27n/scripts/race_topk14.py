"""One-warp top-k rows (16-bit bins), staged (k <= 1024) and not (k > 1024), for compute-sanitizer (uncommitted helper)."""
import torch, dsv4ext
for rows, width, k in ((300, 2048, 512), (300, 2048, 1500), (300, 1000, 300), (200, 500, 100)):
    logits = torch.randn(rows, width, device="cuda")
    logits[::3] = torch.randint(0, 4, (len(range(0, rows, 3)), width), device="cuda").float()
    idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
    st = torch.zeros(rows, dtype=torch.int32, device="cuda"); en = torch.full((rows,), width, dtype=torch.int32, device="cuda")
    torch.ops.dsv4ext.top_k_per_row_prefill(logits, st, en, idx, k, True)
torch.cuda.synchronize()
print("race_topk14 done")
