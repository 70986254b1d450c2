"""The fused seam with the norm on the D = 4096 TMA kernel (gp: the Gram matrix in the post warpgroup) under
compute-sanitizer, at T just past a tile boundary and a partial last round."""
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
torch.manual_seed(0)
for t in (1537, 2600):
    a = mhc_args("mhc_post_hc_head", t, 4096, "cuda", norm=True)
    torch.ops.dsv4ext.mhc_post_hc_head(*a)
    torch.cuda.synchronize()
    print("ran mhc_post_hc_head", t, flush=True)
