"""mhc_post A/B (uncommitted-style helper, session 29). ab_post.py time TAG: kernel time (graph replay) of mhc_post at
both D and of the ops that launch it (mhc_fused_post_pre from 1024 tokens); ab_post.py bits TAG [OTHER]: outputs for
seeded inputs (n in 1 / 4 / 8, D with and without the 16-byte path, T = 0 .. 4097, misaligned mixes) saved to
OUT/post_bits_TAG.pt, or compared bitwise with OTHER's file."""
import os, sys, zlib, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args, mhc_floor_bytes
from dsv4ext.bench.timing import time_cuda
mode, tag = sys.argv[1], sys.argv[2]
BW = 4.17e12  # the H200's copy rate measured in call 1
if mode == "time":
    for d in (4096, 7168):
        row = []
        for t in (1, 64, 128, 256, 512, 4096, 16384, 65536):
            a = mhc_args("mhc_post", t, d, "cuda")
            inner = 20 if t <= 64 else 5 if t <= 16384 else 2
            us = time_cuda(lambda: torch.ops.dsv4ext.mhc_post(*a), graph=True, inner=inner).median * 1e6
            row.append(f"T={t} {us:.2f} ({100 * mhc_floor_bytes('mhc_post', t, d) / BW / us * 1e6:.1f}%)")
            del a
        print(f"{tag:4s} post D={d}: " + " | ".join(row), flush=True)
        row = []
        for t in (16384,):
            a = mhc_args("mhc_fused_post_pre", t, d, "cuda")
            us = time_cuda(lambda: torch.ops.dsv4ext.mhc_fused_post_pre(*a), graph=True, inner=5).median * 1e6
            row.append(f"T={t} {us:.1f}")
            del a
        print(f"{tag:4s} fused_post_pre D={d}: " + " | ".join(row), flush=True)
else:
    out = {}
    for n in (1, 4, 8):
        for d in (8, 72, 4096, 4100, 4104, 7168):
            for t in (0, 1, 3, 17, 100, 1000, 4097):
                if n == 8 and t > 1000:
                    continue
                for misaligned in (False, True):
                    torch.manual_seed(zlib.crc32(repr((n, d, t, misaligned)).encode()))
                    x = torch.randn(t, d, device="cuda").bfloat16()
                    res = (torch.randn(t, n, d, device="cuda") * torch.rand(t, 1, 1, device="cuda") * 8).bfloat16()
                    k = 1 if misaligned else 0
                    post = torch.rand(t * n + k, device="cuda")[k:].view(t, n, 1)
                    comb = torch.rand(t * n * n + k, device="cuda")[k:].view(t, n, n)
                    out[(n, d, t, misaligned)] = torch.ops.dsv4ext.mhc_post(x, res, post, comb).cpu()
    path = os.path.join(os.environ.get("OUT", "/tmp"), f"post_bits_{tag}.pt")
    torch.save(out, path)
    print(f"{tag}: {len(out)} cases")
    if len(sys.argv) > 3:
        other = torch.load(os.path.join(os.environ.get("OUT", "/tmp"), f"post_bits_{sys.argv[3]}.pt"))
        bad = [k for k in out if not torch.equal(out[k].view(torch.int16), other[k].view(torch.int16))]
        print(f"same bits {tag} vs {sys.argv[3]}: {len(out) - len(bad)} of {len(out)} cases equal; differing: {bad[:8]}")
        os.remove(path)
