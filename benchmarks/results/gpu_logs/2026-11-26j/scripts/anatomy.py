"""Decode anatomy (uncommitted helper): anatomy.py TAG. Graph-replay time of mhc_pre T=1/16 with the
Sinkhorn at 20 / 1 iterations, and with fn rotating over 64 tensors (fn from HBM, as in a 61-layer model)."""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
from dsv4ext.bench.timing import time_cuda
tag = sys.argv[1]
f = torch.ops.dsv4ext.mhc_pre
for T in (1, 16):
    a = list(mhc_args("mhc_pre", T, 4096, "cuda", norm=True))
    t20 = time_cuda(lambda: f(*a), graph=True, inner=20).median
    a1 = list(a); a1[8] = 1  # sinkhorn_repeat
    t1 = time_cuda(lambda: f(*a1), graph=True, inner=20).median
    fns = [torch.randn_like(a[1]) for _ in range(64)]
    def cold():
        for i in range(64):
            a[1] = fns[i]; f(*a)
    tc = time_cuda(cold, graph=True, inner=1).median / 64
    print(f"{tag} mhc_pre T={T}: repeat20 {t20*1e6:6.2f} us  repeat1 {t1*1e6:6.2f} us  fn-cold(64 fn) {tc*1e6:6.2f} us", flush=True)
