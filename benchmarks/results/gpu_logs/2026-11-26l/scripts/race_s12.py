"""The pipeline mHC ops at decode and mid sizes (race_mhc.py of session 10), plus the final seam composed from 1024
tokens (mhc_post, then hc_head's pipeline with the norm), for compute-sanitizer memcheck / racecheck (uncommitted helper)."""
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
for T in (1, 16, 200):
    for op in ["mhc_pre", "mhc_pre_delayed", "mhc_fused_post_pre", "mhc_fused_post_pre_delayed", "hc_head", "mhc_post_hc_head"]:
        a = mhc_args(op, T, 4096, "cuda", norm=True)
        getattr(torch.ops.dsv4ext, op)(*a)
for norm in (True, False):
    a = mhc_args("mhc_post_hc_head", 1030, 4096, "cuda", norm=norm)
    torch.ops.dsv4ext.mhc_post_hc_head(*a)
torch.cuda.synchronize()
print("race_s12 done")
