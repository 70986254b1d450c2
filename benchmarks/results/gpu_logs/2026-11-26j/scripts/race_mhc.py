"""Every pipeline mHC op at decode and mid sizes (one tile a cluster, several clusters, staged) for compute-sanitizer
racecheck / memcheck (uncommitted helper): the pipeline kernel leaves without an exit cluster barrier."""
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
for hidden in (4096,):
    for T in (1, 16, 200):
        for op in ["mhc_pre", "mhc_pre_delayed", "mhc_fused_post_pre", "mhc_fused_post_pre_delayed", "hc_head", "mhc_post_hc_head"]:
            for norm in (True,):
                a = mhc_args(op, T, hidden, "cuda", norm=norm)
                getattr(torch.ops.dsv4ext, op)(*a)
torch.cuda.synchronize()
print("race_mhc done")
