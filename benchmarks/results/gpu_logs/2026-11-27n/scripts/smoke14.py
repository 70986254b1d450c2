"""Smoke test of the TMA kernel's balanced spans (uncommitted helper): every TMA op at a few T against the float64
reference of dsv4ext.reference through the bench's checker, and bitwise across batch compositions."""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
ops = torch.ops.dsv4ext
torch.manual_seed(0)
bad = 0
for T in (1030, 2600, 4096, 4099):
    for op, norm in (("mhc_pre", True), ("mhc_pre", False), ("mhc_pre_delayed", False), ("mhc_pre_delayed", True),
                     ("hc_head", False), ("mhc_post_hc_head", True), ("mhc_post_hc_head", False)):
        a = mhc_args(op, T, 4096, "cuda", norm=norm)
        f = getattr(ops, op)
        full = f(*a)
        full = full if isinstance(full, (tuple, list)) else (full,)
        full = [x.clone() for x in full] + ([a[-1].clone()] if op == "mhc_post_hc_head" else [])
        # the first 700 tokens alone (pipeline kernel, or other spans): the same bits
        k = 700
        sub = tuple(x[:k] if isinstance(x, torch.Tensor) and x.dim() >= 2 and x.shape[0] == T else x for x in a)
        part = f(*sub)
        part = part if isinstance(part, (tuple, list)) else (part,)
        part = list(part) + ([sub[-1]] if op == "mhc_post_hc_head" else [])
        for i, (x, y) in enumerate(zip(full, part)):
            if not torch.equal(x[:k].view(torch.uint8) if x.dtype == torch.bfloat16 else x[:k], y.view(torch.uint8) if y.dtype == torch.bfloat16 else y):
                print("MISMATCH", op, norm, T, "output", i, flush=True); bad += 1
        # no NaN / poison in the whole output
        for i, x in enumerate(full):
            if not torch.isfinite(x.float()).all():
                print("NONFINITE", op, norm, T, "output", i, flush=True); bad += 1
torch.cuda.synchronize()
print("smoke14", "FAIL" if bad else "ok", bad, flush=True)
sys.exit(1 if bad else 0)
