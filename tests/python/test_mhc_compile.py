"""torch.compile(fullgraph=True) of a decoder-like chain calling every mHC op (shared/spec/ops.md §3.11,
§6.2): no graph break, and the compiled results equal eager bitwise. One compile for all seven ops:
compiling is slow on the CPU."""

import torch

from mhc_cases import OPS, Case, PostInputs, PreInputs, assert_same, seed_of


def chain(x, residual, post, comb, attn_fn, attn_scale, attn_base, attn_norm, ffn_fn, ffn_scale, ffn_base,
          head_fn, head_scale, head_base, logits):
    """mhc_pre (norm) -> fused post+pre (no norm) -> mhc_post -> hc_head and the delayed pre (carried
    pre_mix, norm) -> the fused post + delayed pre (carried, norm), plus a standalone sinkhorn, with an eager elementwise op in between: inductor
    generates a kernel that reads the custom ops' outputs through their fake (meta) layouts."""
    p0, c0, h0 = OPS.mhc_pre(residual, attn_fn, attn_scale, attn_base, 1e-6, 1e-6, 1e-6, 2.0, 20, attn_norm, 1e-6)
    a = (h0.float() * 0.5 + x.float()).to(torch.bfloat16)
    r1, p1, c1, h1 = OPS.mhc_fused_post_pre(a, residual, p0, c0, ffn_fn, ffn_scale, ffn_base, 1e-20, 1e-6, 1e-6,
                                            1.0, 7, None, 1e-6)
    r2 = OPS.mhc_post(h1, r1, p1.squeeze(-1), c1)
    head = OPS.hc_head(r2, head_fn, head_scale, head_base, 1e-6, 1e-6)
    delayed = OPS.mhc_pre_delayed(r2, attn_fn, attn_scale, attn_base, 1e-6, 1e-6, 1e-6, 2.0, 20, p1.squeeze(-1), None,
                                  attn_norm, 1e-6)
    seam = OPS.mhc_fused_post_pre_delayed(delayed[2], r2, delayed[0], delayed[1], ffn_fn, ffn_scale, ffn_base, 1e-6,
                                          1e-6, 1e-6, 2.0, 20, delayed[3], attn_norm, 1e-6)
    return p0, c0, h0, r1, p1, c1, h1, r2, head, *delayed, *seam, OPS.sinkhorn(logits, 1, 1e-6)


def test_compile_fullgraph_matches_eager(device):
    case = Case((2, 9), 4, 96, norm=True)
    torch.manual_seed(seed_of("compile"))
    step = PostInputs.make(case.lead, case.n, case.d)
    attn, ffn = PreInputs.make(case), PreInputs.make(Case(case.lead, case.n, case.d))
    head = PreInputs.make(Case(case.lead, case.n, case.d), rows=case.n, scales=1)
    args = (step.x, step.residual, step.post, step.comb,
            attn.fn, attn.hc_scale, attn.hc_base, attn.norm_weight, ffn.fn, ffn.hc_scale, ffn.hc_base,
            head.fn, head.hc_scale, head.hc_base, torch.randn(3, 5, 5))
    args = tuple(a.to(device) for a in args)
    torch._dynamo.reset()
    compiled = torch.compile(chain, fullgraph=True, dynamic=False)
    assert_same(compiled(*args), chain(*args))
