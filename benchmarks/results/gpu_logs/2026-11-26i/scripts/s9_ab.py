"""A/B timing for the variant chosen by env (uncommitted helper): s9_ab.py TAG GROUP; GROUP in pack, narrow, decode."""
import os, sys, torch, dsv4ext
from dsv4ext.bench.timing import time_cuda
tag, group = sys.argv[1], sys.argv[2]
bw = 2.978e12
def pack(rows, width):
    dense = torch.randint(0, 1 << 20, (rows, width), dtype=torch.int32, device="cuda")
    lengths = torch.randint(0, width + 1, (rows,), dtype=torch.int32, device="cuda")
    out = torch.empty(rows * width, dtype=torch.int32, device="cuda"); ptr = torch.empty(rows + 1, dtype=torch.int32, device="cuda")
    t = time_cuda(lambda: torch.ops.dsv4ext.ragged_pack(dense, lengths, out, ptr, -1, -1), graph=True, inner=10).median
    nnz = int(lengths.sum()); moved = 4 * rows + 8 * nnz + 4 * (rows + 1)
    # exactness against a host reference
    L = lengths.clamp(0, width).cpu(); d = dense.cpu()
    ref = torch.cat([d[r, :L[r]] for r in range(rows)]); p = torch.zeros(rows + 1, dtype=torch.int64); p[1:] = L.cumsum(0)
    ok = torch.equal(out[:nnz].cpu(), ref) and torch.equal(ptr.cpu().long(), p)
    print(f"{tag:8s} pack {rows}x{width}: {t*1e6:7.2f} us  {100*moved/bw/t:5.1f} % copy  ok={ok}", flush=True)
def topk(kind, rows, width, k):
    logits = torch.randn(rows, width, device="cuda"); idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
    if kind == "prefill":
        st = torch.zeros(rows, dtype=torch.int32, device="cuda"); en = torch.full((rows,), width, dtype=torch.int32, device="cuda")
        run = lambda det: torch.ops.dsv4ext.top_k_per_row_prefill(logits, st, en, idx, k, det)
    else:
        sl = torch.full((rows,), width, dtype=torch.int32, device="cuda")
        run = lambda det: torch.ops.dsv4ext.top_k_per_row_decode(logits, 1, sl, idx, k, det)
    g = kind == "decode"
    t = time_cuda(lambda: run(False), graph=g, inner=10 if g else 1).median
    td = time_cuda(lambda: run(True), graph=g, inner=10 if g else 1).median
    run(True); torch.cuda.synchronize()
    ref = torch.topk(logits, k, dim=-1).values.sort(dim=-1).values
    got = logits.gather(1, idx.long()).sort(dim=-1).values
    ok = torch.equal(ref, got) and bool((idx.diff(dim=1) > 0).all())
    print(f"{tag:8s} {kind:7s} {rows}x{width} k={k}: {t*1e6:8.1f} us  det {td*1e6:8.1f} us ok={ok}", flush=True)
if group == "pack":
    pack(8192, 512); pack(65536, 512)
elif group == "pack4":
    pack(8192, 512); pack(16384, 512); pack(32768, 512); pack(65536, 512)
elif group == "narrow":
    for s in [("prefill", 16384, 2048, 512), ("prefill", 16384, 1500, 512), ("prefill", 16384, 2048, 2047), ("decode", 64, 2048, 512), ("prefill", 16384, 4096, 512), ("prefill", 8192, 4000, 2048)]:
        topk(*s)
elif group == "decode":
    for s in [("decode", 64, 262144, 2048), ("decode", 64, 262144, 512), ("decode", 8, 262144, 2048), ("decode", 1, 262144, 2048), ("decode", 64, 131072, 1024)]:
        topk(*s)
elif group == "few":
    for s in [("decode", 1, 65536, 2048), ("decode", 8, 65536, 2048), ("decode", 8, 65536, 512), ("decode", 1, 262144, 2048), ("decode", 8, 262144, 2048), ("decode", 16, 65536, 2048)]:
        topk(*s)
elif group == "many":
    for s in [("decode", r, w, 2048) for w in (65536, 262144) for r in (1, 2, 8, 16, 32, 64)]:
        topk(*s)
