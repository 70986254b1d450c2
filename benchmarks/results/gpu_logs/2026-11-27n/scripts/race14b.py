"""The held collapse with the final norm (weights from shared memory): the fused seam and the composed one (mhc_post,
then hc_head's TMA kernel with the norm), T = 2600, for compute-sanitizer racecheck (uncommitted helper)."""
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
a = mhc_args("mhc_post_hc_head", 2600, 4096, "cuda", norm=True)
torch.ops.dsv4ext.mhc_post_hc_head(*a)
torch.ops.dsv4ext.mhc_post_hc_head(*a[:-1])
torch.cuda.synchronize()
print("race14b done")
