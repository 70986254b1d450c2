"""The D = 7168 TMA paths under compute-sanitizer (uncommitted helper): hc_head (two warp pairs on alternate tiles),
the seam with and without the norm, mhc_pre with the norm (re-read collapse, 112 active threads), mhc_pre_delayed
without the norm (ring collapse) and with it."""
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
torch.manual_seed(0)
for op, norm, t in (("hc_head", False, 1600), ("mhc_post_hc_head", True, 1600), ("mhc_post_hc_head", False, 1601),
                    ("mhc_pre", True, 1100), ("mhc_pre_delayed", False, 1100), ("mhc_pre_delayed", True, 1030)):
    a = mhc_args(op, t, 7168, "cuda", norm=norm)
    getattr(torch.ops.dsv4ext, op)(*a)
    torch.cuda.synchronize()
    print("ran", op, norm, t, flush=True)
