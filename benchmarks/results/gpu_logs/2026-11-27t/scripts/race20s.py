"""The D = 4096 TMA paths of the prepared gp and rg under compute-sanitizer: the fused seam with the norm (gp: its Gram
matrix in the post warpgroup), hc_head (held collapse) and mhc_pre_delayed without the norm (ring collapse; rg: a
fence before their slot releases), at T just past a tile boundary and with a partial last round."""
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
torch.manual_seed(0)
for op, norm, t in (("mhc_post_hc_head", True, 1537), ("mhc_post_hc_head", True, 2600), ("hc_head", False, 1601),
                    ("mhc_pre_delayed", False, 1025)):
    a = mhc_args(op, t, 4096, "cuda", norm=norm)
    getattr(torch.ops.dsv4ext, op)(*a)
    torch.cuda.synchronize()
    print("ran", op, norm, t, flush=True)
