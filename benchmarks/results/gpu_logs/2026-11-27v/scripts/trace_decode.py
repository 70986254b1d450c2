"""Phase stamps of clustered top-k decode rows (td wheel, trace_decode_td_patch.py; prepared in session 21): each
shape is called a few times, then once more after a sync; the device prints one line a block (clock64 cycles from the
kernel's PDL wait to the end of each phase; -1: the phase did not run)."""
import sys, torch, dsv4ext
for width, k in ((65536, 2048), (65536, 512), (262144, 2048)):
    logits = torch.randn(1, width, device="cuda")
    idx = torch.empty(1, k, dtype=torch.int32, device="cuda")
    sl = torch.full((1,), width, dtype=torch.int32, device="cuda")
    for _ in range(3):
        torch.ops.dsv4ext.top_k_per_row_decode(logits, 1, sl, idx, k, False)
    torch.cuda.synchronize()
    print(f"--- 1 x {width}, k = {k} (the lines below are one call)", flush=True)
    torch.ops.dsv4ext.top_k_per_row_decode(logits, 1, sl, idx, k, False)
    torch.cuda.synchronize()
    sys.stdout.flush()
