"""Which outputs of mhc_pre / mhc_pre_delayed (norm, D = 4096, TMA sizes) differ between two builds, and whether a
build agrees with itself over repeated calls: diag20.py TAG [OTHER] (outputs in OUT/diag_TAG.pt)."""
import os, sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
tag = sys.argv[1]
out = {}
for op in ("mhc_pre", "mhc_pre_delayed", "hc_head"):
    for t in (1024, 2093, 4096):
        torch.manual_seed(t)
        a = mhc_args(op, t, 4096, "cuda", norm=True)
        f = getattr(torch.ops.dsv4ext, op)
        runs = []
        for _ in range(3):
            r = f(*a)
            r = r if isinstance(r, (tuple, list)) else (r,)
            runs.append([x.clone() for x in r if torch.is_tensor(x)])
        self_diff = [int(sum((x != y).sum().item() for x, y in zip(runs[0], rr))) for rr in runs[1:]]
        print(tag, op, t, "self-differing elements over repeats:", self_diff, flush=True)
        out[(op, t)] = [x.cpu() for x in runs[0]]
path = os.path.join(os.environ.get("OUT", "/tmp"), f"diag_{tag}.pt")
torch.save(out, path)
if len(sys.argv) > 2:
    other = torch.load(os.path.join(os.environ.get("OUT", "/tmp"), f"diag_{sys.argv[2]}.pt"))
    for k in out:
        for i, (x, y) in enumerate(zip(out[k], other[k])):
            d = (x.float() - y.float()).abs()
            bad = (x.view(torch.uint8) != y.view(torch.uint8))
            if bad.any():
                rows = torch.nonzero(d.reshape(d.shape[0], -1).amax(1) > 0).flatten()
                print(k, "output", i, tuple(x.shape), "differing rows", rows.numel(), "first", rows[:8].tolist(),
                      "max abs diff", d.max().item(), "max |ref|", y.float().abs().max().item())
