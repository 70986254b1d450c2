"""Outputs of every mHC op for fixed inputs (seeded), saved to OUT/bits_TAG.pt, or compared bitwise with another
tag's file: same_bits17.py TAG [OTHER]. Besides same_bits16's cases, 'nan' cases put NaNs of several sign / payload
patterns (canonical, negative, signalling, payload) into fn's rows, so that fn's bf16 split meets them."""
import os, sys, zlib, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
tag = sys.argv[1]
NANS = [b - (1 << 32) if b >= 1 << 31 else b for b in (0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFC12345, 0x7FBFFFFF)]
out = {}
for hidden in (4096, 7168):
    for op in ["mhc_pre", "mhc_pre_delayed", "mhc_fused_post_pre", "mhc_fused_post_pre_delayed", "hc_head", "mhc_post_hc_head"]:
        for tokens in (1, 16, 200, 700, 1100, 2600, 4096):
            for norm in (True, False):
                for nan in (False, True):
                    if nan and tokens not in (1, 16, 1100, 4096):
                        continue
                    torch.manual_seed(zlib.crc32(repr((hidden, op, tokens, norm)).encode()))
                    a = mhc_args(op, tokens, hidden, "cuda", norm=norm)
                    if nan:
                        fn = next(x for x in a if torch.is_tensor(x) and x.dim() == 2 and x.dtype == torch.float32
                                  and x.shape[1] == 4 * hidden)
                        rows = fn.shape[0]
                        for j, bits in enumerate(NANS):  # rows 1 and rows - 1 (a post / comb row), spread d
                            r = 1 if j % 2 == 0 else rows - 1
                            fn[r, (j * 7919 * 3 + 5) % fn.shape[1]] = torch.tensor([bits], dtype=torch.int32).view(torch.float32)[0]
                    r = getattr(torch.ops.dsv4ext, op)(*a)
                    r = r if isinstance(r, (tuple, list)) else (r,)
                    out[(hidden, op, tokens, norm, nan)] = [x.cpu() for x in r if torch.is_tensor(x)]
path = os.path.join(os.environ.get("OUT", "/tmp"), f"bits_{tag}.pt")
torch.save(out, path)
nan_cases = [k for k in out if k[-1]]
print(f"{tag}: {len(out)} cases, {len(nan_cases)} with NaNs in fn; outputs with a NaN in those:",
      sum(any(torch.isnan(x.float()).any().item() for x in out[k]) for k in nan_cases))
if len(sys.argv) > 2:
    other = torch.load(os.path.join(os.environ.get("OUT", "/tmp"), f"bits_{sys.argv[2]}.pt"))
    bad = [k for k in out if any(not torch.equal(x.view(torch.uint8), y.view(torch.uint8)) for x, y in zip(out[k], other[k]))]
    print(f"same bits {tag} vs {sys.argv[2]}: {len(out) - len(bad)} of {len(out)} cases equal; differing: {bad[:8]}")
os.remove(path) if len(sys.argv) > 2 else None
