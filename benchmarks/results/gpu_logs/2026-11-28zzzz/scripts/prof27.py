"""Nsight Compute driver: three calls of one mHC op (n = 4): prof27.py OP TOKENS HIDDEN NORM(0/1)."""
import sys, torch, dsv4ext  # noqa: F401
from dsv4ext.bench.cases import mhc_args
op, t, d, norm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
a = mhc_args(op, t, d, "cuda", norm=norm)
for _ in range(3):
    getattr(torch.ops.dsv4ext, op)(*a)
torch.cuda.synchronize()
