"""Every TMA-kernel op once at T = 1100 and 2600 (balanced spans with a shifted last tile), for compute-sanitizer
(uncommitted helper)."""
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
for T in (1100, 2600):
    for op, norm in (("mhc_pre", True), ("mhc_pre", False), ("mhc_pre_delayed", False), ("mhc_pre_delayed", True),
                     ("hc_head", False), ("mhc_post_hc_head", True), ("mhc_post_hc_head", False)):
        a = mhc_args(op, T, 4096, "cuda", norm=norm)
        getattr(torch.ops.dsv4ext, op)(*a)
torch.cuda.synchronize()
print("race14 done")
