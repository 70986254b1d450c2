"""Session 32: the TMA-kernel ops sw / nf touch, once each at D = 4096 above min_tokens (T = 1600: a partial
last tile), and (for the next session's rb / pc) the pipeline kernel at T = 29, for compute-sanitizer (racecheck,
memcheck), and the D = 7168 TMA ops at T = 1030. The full scripts/sanitize_ops.py does not finish under racecheck
in a call's time."""
import torch
import dsv4ext  # noqa: F401
from dsv4ext import ops

gen = torch.Generator().manual_seed(0)
n, hidden, tokens, m3 = 4, 4096, 1600, 24
r = torch.randn(tokens, n, hidden, generator=gen).bfloat16().cuda()
fn = (torch.randn(m3, n * hidden, generator=gen) / (n * hidden) ** 0.5).cuda()
sc, base = torch.randn(3, generator=gen).cuda(), torch.randn(m3, generator=gen).cuda()
w = torch.randn(hidden, generator=gen).bfloat16().cuda()
x = torch.randn(tokens, hidden, generator=gen).bfloat16().cuda()
post, comb = torch.rand(tokens, n, 1).cuda(), torch.rand(tokens, n, n).cuda()
pre_mix = torch.rand(tokens, n).cuda()
for norm in (None, w):
    ops.mhc_pre(r, fn, sc, base, norm_weight=norm)
    ops.mhc_pre_delayed(r, fn, sc, base, pre_mix=pre_mix, norm_weight=norm)
    for stash in (None, torch.empty_like(r)):
        ops.mhc_post_hc_head(x, r, post, comb, fn[:n], sc[:1], base[:n], norm_weight=norm, streams_out=stash)
ops.hc_head(r, fn[:n], sc[:1], base[:n])
# The pipeline kernel (decode batches; next_s33.sh's rb / pc): T = 29, the fused ops and the seam, norm on and off.
t = 29
for norm in (None, w):
    ops.mhc_pre(r[:t], fn, sc, base, norm_weight=norm)
    ops.mhc_fused_post_pre(x[:t], r[:t], post[:t], comb[:t], fn, sc, base, norm_weight=norm)
    ops.mhc_fused_post_pre_delayed(x[:t], r[:t], post[:t], comb[:t], fn, sc, base, pre_mix=pre_mix[:t], norm_weight=norm)
    ops.mhc_post_hc_head(x[:t], r[:t], post[:t], comb[:t], fn[:n], sc[:1], base[:n], norm_weight=norm,
                         streams_out=torch.empty_like(r[:t]))
# D = 7168 on the TMA kernel (next_s33.sh's ca / pz / gj: the re-read collapse, project_tf32, gram_own): T = 1030.
hidden, tokens = 7168, 1030
r = torch.randn(tokens, n, hidden, generator=gen).bfloat16().cuda()
fn = (torch.randn(m3, n * hidden, generator=gen) / (n * hidden) ** 0.5).cuda()
w = torch.randn(hidden, generator=gen).bfloat16().cuda()
x = torch.randn(tokens, hidden, generator=gen).bfloat16().cuda()
for norm in (None, w):
    ops.mhc_pre(r, fn, sc, base, norm_weight=norm)
    ops.mhc_pre_delayed(r, fn, sc, base, pre_mix=pre_mix[:tokens], norm_weight=norm)
    ops.mhc_post_hc_head(x, r, post[:tokens], comb[:tokens], fn[:n], sc[:1], base[:n], norm_weight=norm,
                         streams_out=torch.empty_like(r))
torch.cuda.synchronize()
print("sanitize_sw: done")
