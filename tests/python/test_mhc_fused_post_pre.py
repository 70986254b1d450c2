"""mhc_fused_post_pre (shared/spec/ops.md §3.7, §3.11, §6.2): residual_out against the float64 post, the
pre outputs against the float64 pre computed on the op's own stored bf16 residual_out, fused == mhc_post
then mhc_pre (bitwise on the CPU), poisoned outputs, the output order, shapes, run-to-run and batch
invariance, validation messages, opcheck / fake tensors, and (GPU) CUDA-graph replay and CPU agreement."""

import re

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from mhc_cases import (CASES, FAKE_DEVICES, OPS, Case, PostInputs, PreInputs, assert_batch_invariant,
                       assert_graph_replay_matches_eager, assert_same, assert_spans_match, nbytes, run_poisoned,
                       seed_of)

OP = OPS.mhc_fused_post_pre


def make(case: Case, seed: int, device="cpu"):
    torch.manual_seed(seed)
    return PostInputs.make(case.lead, case.n, case.d).to(device), PreInputs.make(case).to(device)


def out_bytes(case: Case) -> int:
    t, n, d = case.tokens, case.n, case.d
    return nbytes(((t, n, d), torch.bfloat16), ((t, n, 1), torch.float32), ((t, n, n), torch.float32),
                  ((t, d), torch.bfloat16))


def unfused(post: PostInputs, pre: PreInputs):
    residual = OPS.mhc_post(*post.args())
    return (residual, *OPS.mhc_pre(residual, *pre.args()))


@pytest.mark.parametrize("case", CASES, ids=str)
def test_accuracy(case, device):
    post, pre = make(case, seed_of("mhc_fused_post_pre", case), device)
    outs = run_poisoned(OP, (*post.args(), *pre.args()), out_bytes(case), device)
    for o in outs:
        assert o.device == post.residual.device and o.is_contiguous()
    post.check(outs[0], what="residual_out")
    # §3.7: the pre half reads the stored bf16 residual_out
    pre.check(outs[1:], outs[0], what="fused pre")
    ref_unfused = unfused(post, pre)
    if device == "cpu":
        assert_same(outs, ref_unfused)
    else:  # "equal apart from reduction order": the unfused pair is held to the same bounds
        post.check(ref_unfused[0], what="unfused residual_out")
        pre.check(ref_unfused[1:], ref_unfused[0], what="unfused pre")


@pytest.mark.parametrize("n,d", [(4, 513), (3, 4096), (8, 65)])
def test_deterministic_and_batch_invariant(n, d, device):
    case = Case((33,), n, d, norm=n == 4, repeat=7)
    post, pre = make(case, seed_of("mhc_fused-inv", case), device)
    args = (*post.args(), *pre.args())
    assert_same(OP(*args), OP(*args))
    assert_batch_invariant(OP, args, lambda t: (*(a[t:t + 1].clone() for a in post.args()), *pre.args()), 33)
    folded = OP(*(a.view(3, 11, *a.shape[1:]) for a in post.args()), *pre.args())
    assert_same(tuple(o.flatten(0, 1) for o in folded), OP(*args))


@pytest.mark.parametrize("lead", [(), (0,), (2, 0), (5,), (2, 3)], ids=lambda l: f"lead{list(l)}")
def test_shapes(lead, device):
    """Output order (§3.7): residual_out, post_mix, comb_mix, layer_input."""
    post, pre = make(Case(lead, 3, 65, norm=True), 1, device)
    outs = OP(*post.args(), *pre.args())
    want = [((*lead, 3, 65), torch.bfloat16), ((*lead, 3, 1), torch.float32), ((*lead, 3, 3), torch.float32),
            ((*lead, 65), torch.bfloat16)]
    assert [(tuple(o.shape), o.dtype) for o in outs] == want
    assert all(o.device == post.residual.device and o.is_contiguous() for o in outs)


def _bad_cases():
    n, d = 4, 8
    z = lambda *s, dt=torch.float32: torch.zeros(*s, dtype=dt)  # noqa: E731
    bf = torch.bfloat16
    return [
        ("x-shape", {0: z(3, d + 1, dt=bf)}, "x must have shape [3, 8], got [3, 9]"),
        ("x-dtype", {0: z(3, d)}, "x must have dtype BFloat16, got Float"),
        ("residual-dtype", {1: z(3, n, d)}, "residual must have dtype BFloat16, got Float"),
        ("residual-n9", {1: z(3, 9, d, dt=bf)},
         "residual.shape[-2] (hc_mult n) must be in 1..8, got 9 (shape [3, 9, 8])"),
        ("residual-noncontig", {1: z(3, d, n, dt=bf).transpose(-1, -2)},
         "residual must be contiguous, got shape [3, 4, 8] with strides [32, 1, 4]"),
        ("post-shape", {2: z(3, n, 2)}, "post_layer_mix must be [..., n, 1] or [..., n] with the leading dims and "
                                        "n of residual [3, 4, 8], got [3, 4, 2]"),
        ("comb-shape", {3: z(3, n, n + 1)}, "comb_res_mix must have shape [3, 4, 4], got [3, 4, 5]"),
        ("fn-shape", {4: z(24, 4 * 9)}, "fn must have shape [24, 32], got [24, 36]"),
        ("fn-dtype", {4: z(24, 32, dt=bf)}, "fn must have dtype Float, got BFloat16"),
        ("hc_scale-shape", {5: z(1)}, "hc_scale must have shape [3], got [1]"),
        ("hc_base-shape", {6: z(23)}, "hc_base must have shape [24], got [23]"),
        ("rms_eps-neg", {7: -1.0}, "rms_eps must be a finite value >= 0, got -1"),
        ("hc_sinkhorn_eps-inf", {9: float("inf")}, "hc_sinkhorn_eps must be a finite value >= 0, got inf"),
        ("mult-nan", {10: float("nan")}, "hc_post_mult_value must be finite, got nan"),
        ("repeat-0", {11: 0}, "sinkhorn_repeat must be in 1..1048576, got 0"),
        ("norm_weight-shape", {12: z(n, d, dt=bf)}, "norm_weight must have shape [8], got [4, 8]"),
        ("norm_weight-dtype", {12: z(d)}, "norm_weight must have dtype BFloat16, got Float"),
        ("norm_eps-neg", {13: -1e-6}, "norm_eps must be a finite value >= 0, got -1e-06"),
    ]


@pytest.mark.parametrize("change,message", [c[1:] for c in _bad_cases()], ids=[c[0] for c in _bad_cases()])
def test_validation(change, message):
    post, pre = make(Case((3,), 4, 8), 0)
    args = [*post.args(), *pre.args()]
    for i, v in change.items():
        args[i] = v
    with pytest.raises(RuntimeError, match=re.escape("dsv4ext.mhc_fused_post_pre: " + message)):
        OP(*args)


@pytest.mark.parametrize("norm", [False, True], ids=["nonorm", "norm"])
def test_opcheck(norm, device):
    post, pre = make(Case((2, 3), 3, 20, norm=norm, repeat=3), 5, device)
    torch.library.opcheck(OP.default, (*post.args(), *pre.args()))


@pytest.mark.parametrize("fake_device", FAKE_DEVICES)
@pytest.mark.parametrize("lead", [(), (0,), (2, 5)], ids=lambda l: f"lead{list(l)}")
def test_fake_shapes(lead, fake_device):
    n, d = 4, 7168
    with FakeTensorMode():
        e = lambda *s, dt=torch.float32: torch.empty(*s, dtype=dt, device=fake_device)  # noqa: E731
        outs = OP(e(*lead, d, dt=torch.bfloat16), e(*lead, n, d, dt=torch.bfloat16), e(*lead, n, 1), e(*lead, n, n),
                  e(24, n * d), e(3), e(24), 1e-6, 1e-6, 1e-6, 2.0, 20, e(d, dt=torch.bfloat16), 1e-6)
    want = [((*lead, n, d), torch.bfloat16), ((*lead, n, 1), torch.float32), ((*lead, n, n), torch.float32),
            ((*lead, d), torch.bfloat16)]
    assert [(tuple(o.shape), o.dtype) for o in outs] == want
    assert all(o.device.type == fake_device and o.is_contiguous() for o in outs)


@pytest.mark.gpu
@pytest.mark.parametrize("tokens", [1, 16, 17, 33, 1024])
def test_cuda_graph_replay(tokens):
    case = Case((tokens,), 4, 4096, norm=True)

    def make_args(i):
        post, pre = make(case, seed_of("mhc_fused-graph", case, i), "cuda")
        return (*post.args(), *pre.args())

    assert_graph_replay_matches_eager(OP, make_args)


@pytest.mark.gpu
@pytest.mark.parametrize("case", [Case((1,), 4, 7168, norm=True), Case((128,), 4, 7168, norm=True),
                                  Case((1024,), 8, 513, rms_eps=1e-20)], ids=str)
def test_cuda_agrees_with_cpu(case):
    """Same inputs on both backends: each residual_out within the bound of the float64 post, and each
    pre half within the bound of the float64 pre on that backend's own residual_out."""
    post, pre = make(case, seed_of("mhc_fused-cpu-cuda", case))
    cpu = OP(*post.args(), *pre.args())
    cuda = tuple(o.cpu() for o in OP(*post.to("cuda").args(), *pre.to("cuda").args()))
    for outs, what in ((cpu, "cpu"), (cuda, "cuda")):
        post.check(outs[0], what=f"{what} residual_out")
        pre.check(outs[1:], outs[0], what=f"{what} pre")


@pytest.mark.gpu
@pytest.mark.parametrize("d", [4096, 7168])
def test_cuda_batch_invariant_across_engines(d):
    """§3.11 where the CUDA n = 4 fast path changes engine with T: a 300-token batch (fn staged per
    cluster, many tiles each) against tokens computed alone (one tile per cluster, fn read from L2)
    and against batches of 5 to 64 tokens (decode batches spread over clusters in tiles of 4 up to 28
    tokens and of 8 up to 56), bitwise, for every op on that path, at tile and cluster-wave edges.
    D = 4096 stages bf16 parts of fn, D = 7168 fp32; the decode engine must split fn the same way."""
    n, t = 4, 300
    case = Case((t,), n, d, norm=True, repeat=7)
    torch.manual_seed(seed_of("engines", case))
    new = lambda *s, dt=torch.float32: torch.randn(*s, dtype=dt, device="cuda")  # noqa: E731
    x, residual, post, comb = new(t, d, dt=torch.bfloat16), new(t, n, d, dt=torch.bfloat16), new(t, n, 1), new(t, n, n)
    pre = PreInputs.make(case).to("cuda")
    head = PreInputs.make(Case((t,), n, d), rows=n, scales=1).to("cuda")
    pre_mix = torch.rand(t, n, device="cuda") + case.pre_eps
    c = case
    delayed = (pre.fn, pre.hc_scale, pre.hc_base, c.rms_eps, c.pre_eps, c.sink_eps, c.mult, c.repeat)
    no_norm = (*pre.args()[:8], None, c.norm_eps)

    def post_head(s):  # with streams_out (the MTP stash): the fast path; returns the stash too
        stash = torch.empty_like(residual[s])
        out = OPS.mhc_post_hc_head(x[s], residual[s], post[s], comb[s], head.fn, head.hc_scale, head.hc_base, 1e-6,
                                   1e-6, pre.norm_weight, 1e-6, streams_out=stash)
        return out, stash

    calls = {
        "mhc_pre": lambda s: OPS.mhc_pre(residual[s], *pre.args()),
        "mhc_pre no norm": lambda s: OPS.mhc_pre(residual[s], *no_norm),
        "mhc_pre_delayed": lambda s: OPS.mhc_pre_delayed(residual[s], *delayed, pre_mix[s], None, pre.norm_weight,
                                                         c.norm_eps),
        "mhc_fused_post_pre": lambda s: OP(x[s], residual[s], post[s], comb[s], *pre.args()),
        "mhc_fused_post_pre_delayed": lambda s: OPS.mhc_fused_post_pre_delayed(
            x[s], residual[s], post[s], comb[s], *delayed, pre_mix[s], pre.norm_weight, c.norm_eps),
        "hc_head": lambda s: OPS.hc_head(residual[s], head.fn, head.hc_scale, head.hc_base, 1e-6, 1e-6),
        "mhc_post_hc_head": post_head,
    }
    # single tokens, and small batches (2-4 tiles of 16 tokens, still on the decode engine)
    spans = [(tok, tok + 1) for tok in (0, 15, 16, 111, 112, 150, t - 1)] + [(3, 20), (17, 50), (64, 128)]
    # decode batches spread over clusters in tiles of 4 (up to 28 tokens), 8 (up to 56) or 16 tokens
    spans += [(7, 12), (200, 228), (200, 229), (230, 286), (230, 287)]
    assert_spans_match(calls, spans)


@pytest.mark.gpu
@pytest.mark.parametrize("norm", [True, False], ids=["norm", "nonorm"])
@pytest.mark.parametrize("d", [4096, 7168])
def test_cuda_batch_invariant_across_compose(d, norm):
    """§3.11 where the CUDA fused ops (n = 4) change kernels with T: below 128 tokens (113 at D = 4096) the
    pipelined kernel applies the post in registers and projects the rounded streams; from there on mhc_post runs,
    then the pre op's own kernel (the pipeline; from 1024 at D = 4096 the TMA kernel, 64-token tiles) on
    the stored streams. A token must get the same bits either way: a 1100-token batch (a partial last
    tile, magnitudes spread over six decades) against single tokens, spans of 112, 113, 120, 127 and 128 tokens, spans
    on both sides of 1024, and a 1053-token span off the tile grid, for mhc_fused_post_pre and
    mhc_fused_post_pre_delayed (carried weights, and the identity entry), and for mhc_post_hc_head with
    streams_out (at D = 4096 from 113 tokens mhc_post, then hc_head's pipeline over the stash with the
    final norm; the output and the stash compared)."""
    n, t = 4, 1100
    case = Case((t,), n, d, norm=norm, repeat=7, rms_eps=1e-6 if norm else 1e-20)
    torch.manual_seed(seed_of("fused-compose", case))
    scale = torch.logspace(-3, 3, t, device="cuda").view(t, 1, 1)[torch.randperm(t, device="cuda")]
    x = torch.randn(t, d, device="cuda").to(torch.bfloat16)
    residual = (torch.randn(t, n, d, device="cuda") * scale).to(torch.bfloat16)
    post, comb = torch.rand(t, n, 1, device="cuda") * 2, torch.rand(t, n, n, device="cuda")
    pre = PreInputs.make(case).to("cuda")
    pre_mix = torch.rand(t, n, device="cuda") + case.pre_eps
    c = case
    delayed = (pre.fn, pre.hc_scale, pre.hc_base, c.rms_eps, c.pre_eps, c.sink_eps, c.mult, c.repeat)
    head = PreInputs.make(Case((t,), n, d), rows=n, scales=1).to("cuda")

    def post_head(s):
        stash = torch.empty_like(residual[s])
        out = OPS.mhc_post_hc_head(x[s], residual[s], post[s], comb[s], head.fn, head.hc_scale, head.hc_base,
                                   c.rms_eps, 1e-6, pre.norm_weight, c.norm_eps, streams_out=stash)
        return out, stash

    calls = {
        "mhc_post_hc_head": post_head,
        "mhc_fused_post_pre": lambda s: OP(x[s], residual[s], post[s], comb[s], *pre.args()),
        "mhc_fused_post_pre_delayed": lambda s: OPS.mhc_fused_post_pre_delayed(
            x[s], residual[s], post[s], comb[s], *delayed, pre_mix[s], pre.norm_weight, c.norm_eps),
        "mhc_fused_post_pre_delayed identity": lambda s: OPS.mhc_fused_post_pre_delayed(
            x[s], residual[s], post[s], comb[s], *delayed, None, pre.norm_weight, c.norm_eps),
    }
    spans = [(tok, tok + 1) for tok in (0, 63, 64, 1023, 1024, t - 1)] + [(5, 70), (0, 112), (0, 113), (9, 129),
                                                                          (1, 128), (0, 128), (100, 228),
                                                                          (60, 1023), (37, 1090)]
    assert_spans_match(calls, spans)


@pytest.mark.gpu
@pytest.mark.slow
def test_cuda_offsets_past_2_31():
    """§3.11: offsets are 64-bit. T * n * D just past 2^31 elements (Pro shape n = 4, D = 7168, 8.6 GB of
    streams in all): for every stream op the last tokens equal the same tokens computed alone."""
    n, d = 4, 7168
    t = 2**31 // (n * d) + 2
    case = Case((t,), n, d, norm=True)
    torch.manual_seed(seed_of("offsets"))
    new = lambda *s, dt=torch.float32: torch.randn(*s, dtype=dt, device="cuda")  # noqa: E731
    x, residual, post, comb = new(t, d, dt=torch.bfloat16), new(t, n, d, dt=torch.bfloat16), new(t, n, 1), new(t, n, n)
    pre = PreInputs.make(case).to("cuda")
    head = PreInputs.make(Case((t,), n, d), rows=n, scales=1).to("cuda")
    calls = [
        (OPS.mhc_pre, lambda s: (residual[s], *pre.args())),
        (OPS.mhc_post, lambda s: (x[s], residual[s], post[s], comb[s])),
        (OP, lambda s: (x[s], residual[s], post[s], comb[s], *pre.args())),
        (OPS.hc_head, lambda s: (residual[s], head.fn, head.hc_scale, head.hc_base, 1e-6, 1e-6)),
        (OPS.mhc_post_hc_head, lambda s: (x[s], residual[s], post[s], comb[s], head.fn, head.hc_scale, head.hc_base,
                                          1e-6, 1e-6, pre.norm_weight, 1e-6)),
    ]
    tail = slice(t - 3, t)
    for op, args in calls:
        whole = op(*args(slice(None)))
        whole = whole if isinstance(whole, tuple) else (whole,)
        assert_same(tuple(w[tail] for w in whole), op(*(a.clone() if torch.is_tensor(a) else a for a in args(tail))))
        del whole
