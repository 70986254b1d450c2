"""hc_head and the seam's pipeline decode calls under compute-sanitizer (uncommitted helper): both D, T = 1, 5, 16, 29,
57, norm on and off."""
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
torch.manual_seed(0)
for d in (4096, 7168):
    for op in ("hc_head", "mhc_post_hc_head"):
        for t in (1, 5, 16, 29, 57):
            for norm in (True, False):
                getattr(torch.ops.dsv4ext, op)(*mhc_args(op, t, d, "cuda", norm=norm))
                torch.cuda.synchronize()
    print("ran D =", d, flush=True)
