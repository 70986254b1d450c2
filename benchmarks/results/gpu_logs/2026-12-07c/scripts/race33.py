"""Session 33, call 3: racecheck of what cpg / all change, small enough for racecheck in the call's time: the D = 7168
24-row TMA kernel (ca: the re-read collapse's addresses, pz: project_tf32's first chain, gj: gram_own's A rows) through
mhc_pre at T = 1030 with and without the norm, and the D = 4096 TMA kernel's normed mhc_pre at T = 1600 (rb)."""
import torch
import dsv4ext  # noqa: F401
from dsv4ext import ops

gen = torch.Generator().manual_seed(0)
n, m3 = 4, 24
for hidden, tokens in ((7168, 1030), (4096, 1600)):
    r = torch.randn(tokens, n, hidden, generator=gen).bfloat16().cuda()
    fn = (torch.randn(m3, n * hidden, generator=gen) / (n * hidden) ** 0.5).cuda()
    sc, base = torch.randn(3, generator=gen).cuda(), torch.randn(m3, generator=gen).cuda()
    w = torch.randn(hidden, generator=gen).bfloat16().cuda()
    for norm in ((None, w) if hidden == 7168 else (w,)):
        ops.mhc_pre(r, fn, sc, base, norm_weight=norm)
        torch.cuda.synchronize()
        print(f"race33: D={hidden} T={tokens} norm={norm is not None} done", flush=True)
