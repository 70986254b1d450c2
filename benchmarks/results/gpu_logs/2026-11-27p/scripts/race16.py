"""The D = 7168 paths with the projection pairs' progress word (hc_head, the seam) under compute-sanitizer racecheck
(uncommitted helper; race15.py's first three cases: its spin loops make the full script too slow for one call)."""
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
torch.manual_seed(0)
for op, norm, t in (("hc_head", False, 1600), ("mhc_post_hc_head", True, 1600), ("mhc_post_hc_head", False, 1601)):
    a = mhc_args(op, t, 7168, "cuda", norm=norm)
    getattr(torch.ops.dsv4ext, op)(*a)
    torch.cuda.synchronize()
    print("ran", op, norm, t, flush=True)
