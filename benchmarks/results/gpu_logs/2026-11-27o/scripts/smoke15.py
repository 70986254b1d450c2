"""Smoke test of the TMA kernel's ops at D = 7168 (uncommitted helper): at a few T, the first 700 tokens alone (the
pipeline kernel) give the same bits as in the whole batch, and nothing is non-finite; also D = 4096 once.
smoke15.py [op,op..] (default: hc_head and the seam)."""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
ops = torch.ops.dsv4ext
ALL = (("hc_head", False), ("mhc_post_hc_head", True), ("mhc_post_hc_head", False), ("mhc_pre", True),
       ("mhc_pre", False), ("mhc_pre_delayed", True), ("mhc_pre_delayed", False), ("mhc_fused_post_pre", True))
pick = sys.argv[1].split(",") if len(sys.argv) > 1 else ["hc_head", "mhc_post_hc_head"]
OPS = [(op, norm) for op, norm in ALL if op in pick]
torch.manual_seed(0)
bad = 0
for D, Ts in ((7168, (1100, 1536, 1601, 2600, 4099)), (4096, (2600,))):
    for T in Ts:
        for op, norm in OPS:
            a = mhc_args(op, T, D, "cuda", norm=norm)
            f = getattr(ops, op)
            full = f(*a)
            full = full if isinstance(full, (tuple, list)) else (full,)
            full = [x.clone() for x in full] + ([a[-1].clone()] if op == "mhc_post_hc_head" else [])
            full = [x for x in full if x.dim() >= 1 and x.shape[0] == T]
            k = 700
            sub = tuple(x[:k] if isinstance(x, torch.Tensor) and x.dim() >= 2 and x.shape[0] == T else x for x in a)
            part = f(*sub)
            part = part if isinstance(part, (tuple, list)) else (part,)
            part = list(part) + ([sub[-1]] if op == "mhc_post_hc_head" else [])
            part = [x for x in part if x.dim() >= 1 and x.shape[0] == k]
            for i, (x, y) in enumerate(zip(full, part)):
                if not torch.equal(x[:k].view(torch.uint8), y.view(torch.uint8)):
                    print("MISMATCH", op, norm, D, T, "output", i, flush=True); bad += 1
            for i, x in enumerate(full):
                if not torch.isfinite(x.float()).all():
                    print("NONFINITE", op, norm, D, T, "output", i, flush=True); bad += 1
            torch.cuda.synchronize()
            print("ok so far", op, norm, D, T, flush=True)
print("smoke15", "FAIL" if bad else "ok", bad, flush=True)
sys.exit(1 if bad else 0)
