import torch, dsv4ext
from dsv4ext import ops
g = torch.Generator().manual_seed(1); n, m3 = 4, 24
for hidden, tokens in ((7168, 1030), (4096, 29)):
    r = torch.randn(tokens, n, hidden, generator=g).bfloat16().cuda()
    fn = (torch.randn(m3, n * hidden, generator=g) / (n * hidden) ** 0.5).cuda()
    sc, base = torch.randn(3, generator=g).cuda(), torch.randn(m3, generator=g).cuda()
    w = torch.randn(hidden, generator=g).bfloat16().cuda(); x = torch.randn(tokens, hidden, generator=g).bfloat16().cuda()
    post, comb, pm = torch.rand(tokens, n, 1).cuda(), torch.rand(tokens, n, n).cuda(), torch.rand(tokens, n).cuda()
    for norm in (None, w):
        ops.mhc_post_hc_head(x, r, post, comb, fn[:n], sc[:1], base[:n], norm_weight=norm, streams_out=torch.empty_like(r))
        if tokens == 29:
            ops.mhc_fused_post_pre(x, r, post, comb, fn, sc, base, norm_weight=norm)
        else:
            ops.mhc_pre_delayed(r, fn, sc, base, pre_mix=pm, norm_weight=norm)
        torch.cuda.synchronize(); print("r2", hidden, tokens, norm is not None, "done", flush=True)
