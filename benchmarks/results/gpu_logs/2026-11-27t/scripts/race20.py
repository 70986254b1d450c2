"""The D = 4096 TMA kernel's variants with the fused norm (the Gram warpgroup of gw) under compute-sanitizer: mhc_pre,
mhc_pre_delayed (streams entry) and hc_head with the norm at T just past a tile boundary."""
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
torch.manual_seed(0)
for op, t in (("mhc_pre", 1090), ("mhc_pre_delayed", 1025), ("hc_head", 1601)):
    a = mhc_args(op, t, 4096, "cuda", norm=True)
    getattr(torch.ops.dsv4ext, op)(*a)
    torch.cuda.synchronize()
    print("ran", op, t, flush=True)
