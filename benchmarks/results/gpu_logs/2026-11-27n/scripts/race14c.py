"""mhc_pre_delayed without the norm (ring collapse, two stages a projection step), T = 1100 and 2600, for
compute-sanitizer (uncommitted helper)."""
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
for T in (1100, 2600):
    a = mhc_args("mhc_pre_delayed", T, 4096, "cuda", norm=False)
    torch.ops.dsv4ext.mhc_pre_delayed(*a)
torch.cuda.synchronize()
print("race14c done")
