"""mhc_post_hc_head (shared/spec/ops.md §4.6): the streams (streams_out) bitwise mhc_post's output and within
the bound of the float64 post; the head output within the bound of the float64 hc_head on those stored
streams; the final norm against the float64 RMSNorm of the bf16 head output; equal to the three ops composed
(bitwise on the CPU); poisoned outputs, shapes, T = 0, odd D, T across the kernels' tile boundaries,
run-to-run and batch invariance, validation messages, opcheck / fake tensors, and (GPU) CPU agreement, repeated
calls' bits and CUDA-graph replay."""

import re

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from conftest import FP32_EPS, assert_bf16_close, bf16_ulp
from dsv4ext import reference as ref
from mhc_cases import (FAKE_DEVICES, OPS, Case, PostInputs, PreInputs, assert_batch_invariant,
                       assert_graph_replay_matches_eager, assert_same, assert_spans_match, check_collapse,
                       collapse_error, nbytes, run_poisoned, seed_of)

OP = OPS.mhc_post_hc_head
NORM_EPS = 1e-5  # distinct from rms_eps so that a swap shows


def make(case: Case, seed: int, device="cpu"):
    """(PostInputs, head PreInputs (fn [n, K], hc_scale [1], hc_base [n]), norm_weight or None)."""
    torch.manual_seed(seed)
    post = PostInputs.make(case.lead, case.n, case.d)
    head = PreInputs.make(Case(case.lead, case.n, case.d, rms_eps=case.rms_eps, pre_eps=case.pre_eps), rows=case.n,
                          scales=1)
    w = torch.randn(case.d).to(torch.bfloat16) if case.norm else None
    return post.to(device), head.to(device), None if w is None else w.to(device)


def args_of(post: PostInputs, head: PreInputs, w, stash=None):
    c = head.case
    return (*post.args(), head.fn, head.hc_scale, head.hc_base, c.rms_eps, c.pre_eps, w, NORM_EPS, stash)


def unfused(post: PostInputs, head: PreInputs, w):
    """mhc_post, hc_head, then the model's RMSNorm (float64 on the bf16 head output, rounded once)."""
    streams = OPS.mhc_post(*post.args())
    c = head.case
    y = OPS.hc_head(streams, head.fn, head.hc_scale, head.hc_base, c.rms_eps, c.pre_eps)
    return streams, y


def check(out, streams, post: PostInputs, head: PreInputs, w, what="mhc_post_hc_head"):
    """streams within the float64 post's bound; out within the float64 hc_head's bound on those stored
    streams (no norm), or within the float64 RMSNorm of the float64 head output rounded to bf16, widened
    by |s w| times the largest distance between the backend's rounded fp32 y and the rounded exact y."""
    lead, d = post.residual.shape[:-2], post.residual.shape[-1]
    assert out.shape == (*lead, d) and out.dtype == torch.bfloat16 and out.is_contiguous()
    post.check(streams, what=f"{what} streams")
    c = head.case
    s_cpu = streams.cpu()
    y_exact = ref.hc_head(s_cpu, head.fn.cpu(), head.hc_scale.cpu(), head.hc_base.cpu(), c.rms_eps, c.pre_eps,
                          exact=True)
    if w is None:
        check_collapse(out, y_exact, s_cpu, head.pre_weights(s_cpu), None, 0.0, what=f"{what} out")
        return
    yb = y_exact.to(torch.bfloat16).double()
    exact = ref.rms_norm(yb, w.cpu(), NORM_EPS, exact=True)
    sw = (torch.rsqrt(yb.square().mean(-1, keepdim=True) + NORM_EPS) * w.cpu().double()).abs()
    delta = collapse_error(s_cpu, head.pre_weights(s_cpu))  # |y' - y| of the backend's fp32 y'
    bound = exact.abs() * (d + 8) * FP32_EPS + sw * (delta + bf16_ulp(y_exact.abs() + delta))
    assert_bf16_close(out, exact, bound, ulps=1, what=f"{what} out (+norm)")


CASES = [
    Case((0,), 4, 256, norm=True),
    Case((1,), 4, 7168, norm=True),
    Case((1,), 4, 4096),
    Case((2,), 8, 5137, rms_eps=1e-20),
    Case((3,), 1, 4096, norm=True),
    Case((5,), 2, 16),
    Case((7,), 3, 513, norm=True),
    Case((16,), 4, 4096, norm=True, rms_eps=1e-20),
    Case((17,), 4, 513, norm=True),
    Case((33,), 8, 65, norm=True),
    Case((33,), 4, 1280),
    Case((128,), 5, 256, norm=True),
    Case((300,), 4, 1280, norm=True),
    Case((2, 3), 4, 256, norm=True, rms_eps=1e-20),
    Case((), 4, 513, norm=True),
]


@pytest.mark.parametrize("stash", [False, True], ids=["nostash", "stash"])
@pytest.mark.parametrize("case", CASES, ids=str)
def test_accuracy(case, stash, device):
    post, head, w = make(case, seed_of("mhc_post_hc_head", case), device)
    streams = torch.full_like(post.residual, float("nan")) if stash else None
    out = run_poisoned(OP, args_of(post, head, w, streams), nbytes(((case.tokens, case.d), torch.bfloat16)), device)
    assert out.device == post.residual.device
    ref_streams, ref_y = unfused(post, head, w)
    if stash:
        assert_same(streams, ref_streams)  # bitwise mhc_post's output, on every backend
    check(out, ref_streams, post, head, w)
    if w is None and device == "cpu":
        assert_same(out, ref_y)  # the CPU runs the same per-token code


@pytest.mark.parametrize("tokens", [1, 2, 3, 4, 5, 15, 16, 17, 31, 32, 33, 65])
def test_tile_boundaries(tokens, device):
    """T across the kernel's tiles (4 or 2 tokens) and 16-token boundaries, n = 4 with 16-byte chunks
    (D = 512) and scalar ones (D = 520), and n = 6."""
    for n, d in ((4, 512), (4, 520), (6, 72)):
        case = Case((tokens,), n, d, norm=True)
        post, head, w = make(case, seed_of("mhc_post_hc_head-tiles", case), device)
        streams = torch.empty_like(post.residual)
        out = OP(*args_of(post, head, w, streams))
        assert_same(streams, OPS.mhc_post(*post.args()))
        check(out, streams, post, head, w, what=f"n{n} D{d}")


def test_cpu_equals_composition_with_norm():
    """CPU, with the norm: the head output before the norm is hc_head's bitwise, so the result is the
    float64 RMSNorm of that bf16 value within 1 ulp + the fp32 error of the norm."""
    case = Case((9,), 4, 700, norm=True)
    post, head, w = make(case, seed_of("mhc_post_hc_head-compose", case))
    out = OP(*args_of(post, head, w))
    _, y = unfused(post, head, w)
    exact = ref.rms_norm(y, w, NORM_EPS, exact=True)
    assert_bf16_close(out, exact, exact.abs() * (case.d + 8) * FP32_EPS, ulps=1, what="composition")


@pytest.mark.parametrize("n,d", [(4, 512), (3, 4096), (8, 65)])
def test_deterministic_and_batch_invariant(n, d, device):
    case = Case((33,), n, d, norm=True)
    post, head, w = make(case, seed_of("mhc_post_hc_head-inv", case), device)
    args = args_of(post, head, w)
    rest = args[4:]
    assert_same(OP(*args), OP(*args))
    assert_batch_invariant(OP, args, lambda t: (*(a[t:t + 1].clone() for a in post.args()), *rest), 33)
    folded = OP(*(a.view(3, 11, *a.shape[1:]) for a in post.args()), *rest)
    assert_same(folded.flatten(0, 1), OP(*args))


@pytest.mark.parametrize("lead", [(), (0,), (2, 0), (5,), (2, 3)], ids=lambda l: f"lead{list(l)}")
def test_shapes(lead, device):
    post, head, w = make(Case(lead, 3, 65, norm=True), 1, device)
    streams = torch.empty_like(post.residual)
    out = OP(*args_of(post, head, w, streams))
    assert out.shape == (*lead, 65) and out.dtype == torch.bfloat16 and out.is_contiguous()
    assert out.device == post.residual.device


def _bad_cases():
    n, d = 4, 8
    z = lambda *s, dt=torch.float32: torch.zeros(*s, dtype=dt)  # noqa: E731
    bf = torch.bfloat16
    return [
        ("x-shape", {0: z(3, d + 1, dt=bf)}, "x must have shape [3, 8], got [3, 9]"),
        ("residual-dtype", {1: z(3, n, d)}, "residual must have dtype BFloat16, got Float"),
        ("residual-n9", {1: z(3, 9, d, dt=bf)},
         "residual.shape[-2] (hc_mult n) must be in 1..8, got 9 (shape [3, 9, 8])"),
        ("post-shape", {2: z(3, n, 2)}, "post_layer_mix must be [..., n, 1] or [..., n] with the leading dims and "
                                        "n of residual [3, 4, 8], got [3, 4, 2]"),
        ("comb-shape", {3: z(3, n, n + 1)}, "comb_res_mix must have shape [3, 4, 4], got [3, 4, 5]"),
        ("fn-mhc-rows", {4: z(24, 32)}, "fn must have shape [4, 32], got [24, 32]"),
        ("fn-dtype", {4: z(4, 32, dt=bf)}, "fn must have dtype Float, got BFloat16"),
        ("hc_scale-shape", {5: z(3)}, "hc_scale must have shape [1], got [3]"),
        ("hc_base-shape", {6: z(24)}, "hc_base must have shape [4], got [24]"),
        ("rms_eps-neg", {7: -1.0}, "rms_eps must be a finite value >= 0, got -1"),
        ("hc_eps-inf", {8: float("inf")}, "hc_eps must be a finite value >= 0, got inf"),
        ("norm_weight-shape", {9: z(n, d, dt=bf)}, "norm_weight must have shape [8], got [4, 8]"),
        ("norm_weight-dtype", {9: z(d)}, "norm_weight must have dtype BFloat16, got Float"),
        ("norm_eps-neg", {10: -1e-6}, "norm_eps must be a finite value >= 0, got -1e-06"),
        ("streams_out-shape", {11: z(3, n, d + 1, dt=bf)}, "streams_out must have shape [3, 4, 8], got [3, 4, 9]"),
        ("streams_out-dtype", {11: z(3, n, d)}, "streams_out must have dtype BFloat16, got Float"),
        ("streams_out-noncontig", {11: z(3, d, n, dt=bf).transpose(-1, -2)},
         "streams_out must be contiguous, got shape [3, 4, 8] with strides [32, 1, 4]"),
        ("streams_out-alias", {11: "residual"}, "streams_out must not overlap residual or x"),
    ]


@pytest.mark.parametrize("change,message", [c[1:] for c in _bad_cases()], ids=[c[0] for c in _bad_cases()])
def test_validation(change, message):
    post, head, w = make(Case((3,), 4, 8, norm=True), 0)
    args = list(args_of(post, head, w))
    for i, v in change.items():
        args[i] = args[1] if v == "residual" else v
    with pytest.raises(RuntimeError, match=re.escape("dsv4ext.mhc_post_hc_head: " + message)):
        OP(*args)


@pytest.mark.parametrize("norm,stash", [(False, False), (True, True)], ids=["plain", "norm-stash"])
def test_opcheck(norm, stash, device):
    post, head, w = make(Case((2, 3), 3, 20, norm=norm), 5, device)
    streams = torch.empty_like(post.residual) if stash else None
    torch.library.opcheck(OP.default, args_of(post, head, w, streams))


@pytest.mark.parametrize("fake_device", FAKE_DEVICES)
@pytest.mark.parametrize("lead", [(), (0,), (2, 5)], ids=lambda l: f"lead{list(l)}")
def test_fake_shapes(lead, fake_device):
    n, d = 4, 7168
    with FakeTensorMode():
        e = lambda *s, dt=torch.float32: torch.empty(*s, dtype=dt, device=fake_device)  # noqa: E731
        out = OP(e(*lead, d, dt=torch.bfloat16), e(*lead, n, d, dt=torch.bfloat16), e(*lead, n, 1), e(*lead, n, n),
                 e(n, n * d), e(1), e(n), 1e-6, 1e-6, e(d, dt=torch.bfloat16), 1e-6, e(*lead, n, d, dt=torch.bfloat16))
    assert tuple(out.shape) == (*lead, d) and out.dtype == torch.bfloat16
    assert out.device.type == fake_device and out.is_contiguous()


def test_compile_fullgraph(device):
    """No graph break with the in-place streams_out; bitwise equal to eager."""
    post, head, w = make(Case((5,), 4, 64, norm=True), 7, device)
    streams = torch.empty_like(post.residual)

    def f(*a):
        return OP(*a)

    torch._dynamo.reset()
    got = torch.compile(f, fullgraph=True)(*args_of(post, head, w, streams))
    assert_same(got, OP(*args_of(post, head, w, torch.empty_like(streams))))
    assert_same(streams, OPS.mhc_post(*post.args()))


GPU_CASES = [Case((1,), 4, 7168, norm=True), Case((16,), 4, 4096, norm=True), Case((17,), 4, 4096),
             Case((1024,), 4, 7168, norm=True), Case((33,), 4, 513, norm=True), Case((1024,), 8, 513, rms_eps=1e-20),
             Case((65,), 2, 4097, norm=True), Case((1100,), 4, 4096, norm=True), Case((1030,), 4, 4096),
             Case((2600,), 4, 4096, norm=True), Case((4099,), 4, 4096), Case((2600,), 4, 7168, norm=True),
             Case((1601,), 4, 7168)]


@pytest.mark.gpu
@pytest.mark.parametrize("case", GPU_CASES, ids=str)
def test_cuda_agrees_with_cpu(case):
    """Same inputs on both backends, each within the bounds of the float64 reference; the CUDA stash is
    bitwise the CUDA mhc_post. Without streams_out CUDA may take another kernel (n = 4: the pipeline
    needs the stash), so that call is held to the same bounds, not to the same bits."""
    post, head, w = make(case, seed_of("mhc_post_hc_head-cpu-cuda", case))
    out_cpu = OP(*args_of(post, head, w))
    check(out_cpu, OPS.mhc_post(*post.args()), post, head, w, what="cpu")
    cp, ch, cw = post.to("cuda"), head.to("cuda"), None if w is None else w.cuda()
    streams = torch.full_like(cp.residual, float("nan"))
    out = run_poisoned(OP, args_of(cp, ch, cw, streams), nbytes(((case.tokens, case.d), torch.bfloat16)), "cuda")
    assert_same(streams, OPS.mhc_post(*cp.args()))
    check(out.cpu(), streams.cpu(), post, head, w, what="cuda")
    out_nostash = OP(*args_of(cp, ch, cw))
    check(out_nostash.cpu(), streams.cpu(), post, head, w, what="cuda without streams_out")


@pytest.mark.gpu
@pytest.mark.parametrize("d", [4096, 7168])
@pytest.mark.parametrize("norm", [True, False], ids=["norm", "nonorm"])
def test_cuda_batch_invariant_across_kernels(norm, d):
    """§3.11 where the CUDA seam with streams_out (n = 4, D = 4096) changes kernels with T: below 128
    tokens the pipelined kernel (the post in registers), from 128 mhc_post then hc_head's kernel over the
    stash, from 1536 the TMA kernel that applies the post to each stage in shared memory and holds the tile
    until its weights arrive. At D = 7168: the pipelined kernel below 1024 tokens (tf32 engine), the TMA
    kernel (32-token tiles, the tf32 chains on mma.sync) from there on (spans of 1023 and 1024 tokens
    probe it). A 2700-token batch (a partial last tile, magnitudes over six decades) against single
    tokens and spans on each path (a 2600-token one off the tile grids): the output and the stash
    bitwise."""
    n, t = 4, 2700
    torch.manual_seed(seed_of("mhc_post_hc_head-kernels", norm, d))
    scale = torch.logspace(-3, 3, t, device="cuda").view(t, 1, 1)[torch.randperm(t, device="cuda")]
    x = torch.randn(t, d, device="cuda").to(torch.bfloat16)
    residual = (torch.randn(t, n, d, device="cuda") * scale).to(torch.bfloat16)
    post, comb = torch.rand(t, n, 1, device="cuda") * 2, torch.rand(t, n, n, device="cuda")
    head = PreInputs.make(Case((t,), n, d), rows=n, scales=1).to("cuda")
    w = torch.randn(d, device="cuda").to(torch.bfloat16) if norm else None

    def call(s):
        stash = torch.full_like(residual[s], float("nan"))
        out = OP(x[s], residual[s], post[s], comb[s], head.fn, head.hc_scale, head.hc_base, 1e-6, 1e-6, w, NORM_EPS,
                 streams_out=stash)
        return out, stash

    spans = [(tok, tok + 1) for tok in (0, 63, 64, 1535, 1536, t - 1)] + [(5, 70), (100, 228), (37, 1500),
                                                                         (50, 2650), (t - 2600, t), (t - 13, t),
                                                                         (100, 1123), (100, 1124)]
    assert_spans_match({"mhc_post_hc_head": call}, spans)


@pytest.mark.gpu
@pytest.mark.parametrize("d", [4096, 7168])
def test_cuda_repeat_identical(d):
    """Repeated calls on the same inputs give the same bits, the output and the stash (n = 4, 4100 tokens: the TMA
    kernel, its stage ring, x ring and partial slots cycling many times, a partial last tile). A ring slot released
    before its reader's loads completed gave a few rows another stage's words, different from call to call, while the
    accuracy cases passed (test_mhc_pre.py; benchmarks/NOTES.md, sessions 20 and 28)."""
    n, t = 4, 4100
    case = Case((t,), n, d, norm=True)
    post, head, w = make(case, seed_of("mhc_post_hc_head-repeat", case), "cuda")

    def call():
        stash = torch.full_like(post.residual, float("nan"))
        return OP(*args_of(post, head, w, stash)), stash

    first = call()
    for rep in range(8):
        again = call()
        for i, (a, b) in enumerate(zip(first, again)):
            assert torch.equal(a.view(torch.uint8), b.view(torch.uint8)), f"output {i} differs on repeat {rep + 1}"


@pytest.mark.gpu
@pytest.mark.parametrize("tokens", [1, 16, 17, 33, 1024, 2600])
@pytest.mark.parametrize("n,d", [(4, 4096), (3, 513)])
def test_cuda_graph_replay(tokens, n, d):
    case = Case((tokens,), n, d, norm=True)

    def make_args(i):
        post, head, w = make(case, seed_of("mhc_post_hc_head-graph", case, i), "cuda")
        return args_of(post, head, w, torch.empty_like(post.residual))

    def op(*a):
        return OP(*a), a[-1]

    assert_graph_replay_matches_eager(op, make_args)


@pytest.mark.gpu
def test_cuda_device_mismatch():
    post, head, w = make(Case((3,), 4, 8, norm=True), 0, "cuda")
    args = list(args_of(post, head, w))
    args[9] = args[9].cpu()
    with pytest.raises(RuntimeError, match=re.escape("dsv4ext.mhc_post_hc_head: norm_weight must be on the same "
                                                     "device as residual (cuda:0), got cpu")):
        OP(*args)
