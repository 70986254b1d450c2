"""Outputs of the TMA-kernel ops for seeded inputs at prefill sizes (session 29): tma_bits.py TAG [OTHER] saves
OUT/tma_bits_TAG.pt or compares it bitwise with OTHER's. TB_OPS / TB_T / TB_D (comma lists) choose the cases; every op
with the fused norm on and off (mhc_post_hc_head: on)."""
import os, sys, zlib, torch, dsv4ext  # noqa: F401
from dsv4ext.bench.cases import mhc_args
tag = sys.argv[1]
out = {}
for d in map(int, os.environ.get("TB_D", "4096,7168").split(",")):
    for op in os.environ.get("TB_OPS", "mhc_pre,mhc_pre_delayed").split(","):
        for t in map(int, os.environ.get("TB_T", "1024,1100,4100,9000").split(",")):
            for norm in (True, False):
                torch.manual_seed(zlib.crc32(repr((d, op, t, norm)).encode()))
                r = getattr(torch.ops.dsv4ext, op)(*mhc_args(op, t, d, "cuda", norm=norm))
                r = r if isinstance(r, (tuple, list)) else (r,)
                out[(d, op, t, norm)] = [x.cpu() for x in r if torch.is_tensor(x)]
path = os.path.join(os.environ.get("OUT", "/tmp"), f"tma_bits_{tag}.pt")
torch.save(out, path)
print(f"{tag}: {len(out)} cases")
if len(sys.argv) > 2:
    other = torch.load(os.path.join(os.environ.get("OUT", "/tmp"), f"tma_bits_{sys.argv[2]}.pt"))
    bad = [k for k in out if any(not torch.equal(x.view(torch.uint8), y.view(torch.uint8)) for x, y in zip(out[k], other[k]))]
    print(f"same bits {tag} vs {sys.argv[2]}: {len(out) - len(bad)} of {len(out)} cases equal; differing: {bad[:8]}")
    os.remove(path)
