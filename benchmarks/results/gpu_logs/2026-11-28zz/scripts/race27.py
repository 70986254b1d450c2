"""The D = 7168 ring consumers under compute-sanitizer: the ring collapse (mhc_pre_delayed without the norm), the re-read
collapse (mhc_pre with the norm), hc_head's pairs and the seam (the projection's early release): race27.py [cases]."""
import sys
import torch
import dsv4ext  # noqa: F401
from dsv4ext.bench.cases import mhc_args
CASES = {"delayed_nn": ("mhc_pre_delayed", False, 1100), "pre": ("mhc_pre", True, 1100), "head": ("hc_head", False, 1600),
         "seam": ("mhc_post_hc_head", True, 1100)}
torch.manual_seed(0)
for name in (sys.argv[1].split(",") if len(sys.argv) > 1 else CASES):
    op, norm, t = CASES[name]
    getattr(torch.ops.dsv4ext, op)(*mhc_args(op, t, 7168, "cuda", norm=norm))
    torch.cuda.synchronize()
    print("ran", op, norm, t, flush=True)
