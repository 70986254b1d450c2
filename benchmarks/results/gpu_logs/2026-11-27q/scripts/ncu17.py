"""One op at (T, D, norm), called three times (the profile takes the third launch of the matched kernel): ncu17.py OP T D
NORM(0/1). Used by s17_call5.sh under Nsight Compute (uncommitted helper)."""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
op, t, d, norm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
a = mhc_args(op, t, d, "cuda", norm=norm)
f = getattr(torch.ops.dsv4ext, op)
for _ in range(3):
    f(*a)
torch.cuda.synchronize()
