import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
norm, carried = sys.argv[1] == "norm", sys.argv[2] == "carried"
a = list(mhc_args("mhc_pre_delayed", 16384, 4096, "cuda"))
if not norm: a[11] = None
if not carried: a[9] = None
for _ in range(3): torch.ops.dsv4ext.mhc_pre_delayed(*a)
torch.cuda.synchronize()
