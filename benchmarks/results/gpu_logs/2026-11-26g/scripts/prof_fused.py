"""Three calls of a fused op at D = 4096 for ncu: prof_fused.py OP norm|nonorm T"""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
op, norm, t = sys.argv[1], sys.argv[2] == "norm", int(sys.argv[3])
a = mhc_args(op, t, 4096, "cuda", norm=norm)
for _ in range(3): getattr(torch.ops.dsv4ext, op)(*a)
torch.cuda.synchronize()
