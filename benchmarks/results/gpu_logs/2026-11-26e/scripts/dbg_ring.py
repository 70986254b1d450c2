"""Where the ring collapse goes wrong: mhc_pre_delayed carried, no norm, against float64."""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
torch.manual_seed(0)
for t in (901, 1024, 1500):
  for rep in range(3):
    a = list(mhc_args("mhc_pre_delayed", t, 4096, "cuda"))
    a[11] = None
    a[0] = a[0] * torch.exp(torch.randn(t, 1, 1, device="cuda") * 2).bfloat16()
    out = torch.ops.dsv4ext.mhc_pre_delayed(*a)[2].double()
    ref = (a[9].double()[:, :, None] * a[0].double()).sum(1)
    bad = ((out - ref).abs() > 1e-2 * ref.abs() + 1e-3 * ref.abs().amax(1, keepdim=True)).nonzero()
    if len(bad) == 0:
        print(t, rep, "ok"); continue
    tok, d = bad[:, 0], bad[:, 1]
    tile, m, rank, v, c = tok // 64, tok % 64, d // 256, (d % 256) // 32, (d % 32) // 8
    f = lambda x: sorted(set(x.tolist()))
    print(t, rep, "bad", len(bad), "tiles", f(tile)[:12], "m", f(m)[:20], "rank", f(rank), "v", f(v), "c", f(c))
