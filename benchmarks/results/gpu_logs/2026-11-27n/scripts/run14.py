"""A few calls of one mHC op (uncommitted helper, for ncu and the trace build): run14.py OP NORM(0/1) T [D]."""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
op, norm, t = sys.argv[1], bool(int(sys.argv[2])), int(sys.argv[3])
d = int(sys.argv[4]) if len(sys.argv) > 4 else 4096
a = mhc_args(op, t, d, "cuda", norm=norm)
f = getattr(torch.ops.dsv4ext, op)
for _ in range(3):
    f(*a)
    torch.cuda.synchronize()
print("run14 done", op, norm, t, d, flush=True)
