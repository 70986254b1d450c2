"""Runs one mHC op at decode size 12 times (uncommitted helper for ncu): ncu_decode.py OP T D."""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
op, T, D = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
a = mhc_args(op, T, D, "cuda", norm=True); f = getattr(torch.ops.dsv4ext, op)
for _ in range(12): f(*a)
torch.cuda.synchronize()
