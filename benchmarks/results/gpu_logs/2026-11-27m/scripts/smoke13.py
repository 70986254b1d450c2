"""Smoke test of the fused seam on the TMA kernel (uncommitted helper): stash == mhc_post, output == hc_head(stash)
(+ the final norm's op, compared with the composed seam's output at T = 1100) bitwise."""
import sys, torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
ops = torch.ops.dsv4ext
bad = 0
for T in (2600, 4099):
    for norm in (False, True):
        a = list(mhc_args("mhc_post_hc_head", T, 4096, "cuda", norm=norm))
        stash = a[-1] if torch.is_tensor(a[-1]) else None
        out = ops.mhc_post_hc_head(*a)
        torch.cuda.synchronize()
        ok_s = stash is None or torch.equal(stash, ops.mhc_post(*a[:4]))
        parts = [ops.mhc_post_hc_head(*[x[s] if torch.is_tensor(x) and x.shape[:1] == (T,) else x for x in a[:-1]],
                                      a[-1][s] if stash is not None else None) for s in (slice(0, 100), slice(T - 300, T))]
        ok_o = torch.equal(out[:100], parts[0]) and torch.equal(out[T - 300:], parts[1])
        print(f"T={T} norm={norm} stash={'given' if stash is not None else 'none'} stash==post: {ok_s} out==spans: {ok_o}",
              flush=True)
        bad += not (ok_s and ok_o)
sys.exit(1 if bad else 0)
