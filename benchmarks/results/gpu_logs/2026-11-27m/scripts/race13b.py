"""The TMA kernel's fused seam (post applied in the ring) and hc_head's held collapse, for compute-sanitizer
(uncommitted helper)."""
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
for T in (1030, 2600):
    a = mhc_args("hc_head", T, 4096, "cuda", norm=False)
    torch.ops.dsv4ext.hc_head(*a)
    for norm in (True, False):
        a = mhc_args("mhc_post_hc_head", T, 4096, "cuda", norm=norm)
        torch.ops.dsv4ext.mhc_post_hc_head(*a)
torch.cuda.synchronize()
print("race13b done")
