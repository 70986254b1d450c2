"""The pipeline kernel's decode tiles of 4 and 8 tokens (and 16) under compute-sanitizer (uncommitted helper): every
pipeline op at both D, T = 5 (tiles of 4, a partial one), 16, 29 (tiles of 8) and 57 (16), norm on and off."""
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
torch.manual_seed(0)
for d in (4096, 7168):
    for op in ("mhc_pre", "mhc_pre_delayed", "mhc_fused_post_pre", "mhc_fused_post_pre_delayed", "hc_head",
               "mhc_post_hc_head"):
        for t in (5, 16, 29, 57):
            for norm in (True, False):
                getattr(torch.ops.dsv4ext, op)(*mhc_args(op, t, d, "cuda", norm=norm))
                torch.cuda.synchronize()
    print("ran D =", d, flush=True)
