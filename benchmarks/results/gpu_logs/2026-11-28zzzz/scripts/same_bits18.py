"""Outputs of every mHC op for fixed seeded inputs at decode batch sizes (the tile spread's boundaries), saved to
OUT/bits_TAG.pt or compared bitwise with another tag's file: same_bits18.py TAG [OTHER]. SB_OPS / SB_T (comma lists)
narrow the ops and the token counts."""
import os, sys, zlib, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
tag = sys.argv[1]
out = {}
for hidden in (4096, 7168):
    for op in os.environ.get("SB_OPS", "mhc_pre,mhc_pre_delayed,mhc_fused_post_pre,mhc_fused_post_pre_delayed,hc_head,"
                             "mhc_post_hc_head").split(","):
        for tokens in map(int, os.environ.get("SB_T", "1,2,3,4,5,8,13,16,17,28,29,40,56,57,64,100").split(",")):
            for norm in (True, False):
                torch.manual_seed(zlib.crc32(repr((hidden, op, tokens, norm)).encode()))
                r = getattr(torch.ops.dsv4ext, op)(*mhc_args(op, tokens, hidden, "cuda", norm=norm))
                r = r if isinstance(r, (tuple, list)) else (r,)
                out[(hidden, op, tokens, norm)] = [x.cpu() for x in r if torch.is_tensor(x)]
path = os.path.join(os.environ.get("OUT", "/tmp"), f"bits_{tag}.pt")
torch.save(out, path)
print(f"{tag}: {len(out)} cases")
if len(sys.argv) > 2:
    other = torch.load(os.path.join(os.environ.get("OUT", "/tmp"), f"bits_{sys.argv[2]}.pt"))
    bad = [k for k in out if any(not torch.equal(x.view(torch.uint8), y.view(torch.uint8)) for x, y in zip(out[k], other[k]))]
    print(f"same bits {tag} vs {sys.argv[2]}: {len(out) - len(bad)} of {len(out)} cases equal; differing: {bad[:8]}")
    os.remove(path)
