"""mhc_pre with the norm (re-read collapse) at T = 1100, for compute-sanitizer racecheck (uncommitted helper)."""
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
a = mhc_args("mhc_pre", 1100, 4096, "cuda", norm=True)
torch.ops.dsv4ext.mhc_pre(*a)
torch.cuda.synchronize()
print("race14d done")
