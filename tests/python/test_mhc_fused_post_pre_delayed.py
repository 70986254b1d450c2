"""mhc_fused_post_pre_delayed (DeepSeek-V4.1's seam, docs/ops.md): residual_out against the float64 post, the
delayed pre's outputs against the float64 delayed pre computed on the op's own stored bf16 residual_out, with
the carried pre_mix and without one (stream 0), over n in {1, 4, 8}, odd D, T = 0 and norm on/off with
poisoned outputs; fused == mhc_post then mhc_pre_delayed (bitwise on the CPU); the output order, shapes,
batch invariance, validation messages, opcheck / fake tensors, and (GPU) CUDA-graph replay and CPU
agreement."""

import re

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from mhc_cases import (FAKE_DEVICES, OPS, Case, PostInputs, PreInputs, assert_batch_invariant,
                       assert_graph_replay_matches_eager, assert_same, nbytes, run_poisoned, seed_of)
from test_mhc_pre_delayed import check as check_delayed

OP = OPS.mhc_fused_post_pre_delayed
ENTRIES = ["identity", "carried"]

CASES = [
    Case((0,), 4, 256, norm=True),
    Case((1,), 4, 7168, norm=True),
    Case((1,), 1, 65),
    Case((2,), 8, 5137, rms_eps=1e-20, repeat=7, mult=1.0),
    Case((7,), 1, 513, norm=True, rms_eps=1e-20, repeat=1),
    Case((16,), 3, 513, mult=1.0),
    Case((17,), 4, 257, norm=True, repeat=7, pre_eps=0.25, sink_eps=0.05),
    Case((33,), 8, 65, norm=True, rms_eps=1e-20),
    Case((33,), 4, 1029),
    Case((128,), 8, 513, repeat=7, mult=1.0),
    Case((300,), 4, 1280, norm=True, norm_eps=1e-20),
    Case((1024,), 2, 65, norm=True),
    # CUDA n = 4 pipeline: decode (fn from L2), bf16-part engine (D = 4096), fp32 slice (D = 7168);
    # many tiles per cluster and a partial last tile.
    Case((16,), 4, 4096, norm=True),
    Case((2077,), 4, 4096, norm=True),
    Case((700,), 4, 7168, rms_eps=1e-20),
    Case((2, 3), 4, 256, norm=True, rms_eps=1e-20),
    Case((), 4, 513, norm=True),
]


def make(case: Case, entry: str, seed: int, device="cpu"):
    """(post inputs, the pre's arguments in mhc_pre_delayed's order: fn .. norm_eps, with x None). The
    carried pre_mix is in the range of the op's own new_pre (sigmoid + eps)."""
    torch.manual_seed(seed)
    post, pre = PostInputs.make(case.lead, case.n, case.d), PreInputs.make(case)
    pre_mix = torch.rand(*case.lead, case.n) + case.pre_eps if entry == "carried" else None
    c = case
    args = (pre.fn, pre.hc_scale, pre.hc_base, c.rms_eps, c.pre_eps, c.sink_eps, c.mult, c.repeat, pre_mix, None,
            pre.norm_weight, c.norm_eps)
    to = lambda a: a.to(device) if torch.is_tensor(a) else a  # noqa: E731
    return post.to(device), tuple(map(to, args))


def op_args(post: PostInputs, pre_args: tuple) -> tuple:
    """The fused op's arguments: mhc_post's, then mhc_pre_delayed's without x."""
    return (*post.args(), *pre_args[:9], *pre_args[10:])


def out_bytes(case: Case) -> int:
    t, n, d = case.tokens, case.n, case.d
    return nbytes(((t, n, d), torch.bfloat16), ((t, n, 1), torch.float32), ((t, n, n), torch.float32),
                  ((t, d), torch.bfloat16), ((t, n), torch.float32))


def check(case: Case, outs, post: PostInputs, pre_args: tuple, what="fused"):
    post.check(outs[0], what=f"{what} residual_out")
    # The delayed pre reads the stored bf16 residual_out.
    check_delayed(case, outs[1:], outs[0], pre_args, what=f"{what} pre")


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("case", CASES, ids=str)
def test_accuracy(case, entry, device):
    post, pre_args = make(case, entry, seed_of("mhc_fused_delayed", case, entry), device)
    outs = run_poisoned(OP, op_args(post, pre_args), out_bytes(case), device)
    assert all(o.device == post.residual.device and o.is_contiguous() for o in outs)
    check(case, outs, post, pre_args)
    residual = OPS.mhc_post(*post.args())
    unfused = (residual, *OPS.mhc_pre_delayed(residual, *pre_args))
    if device == "cpu":
        assert_same(outs, unfused)
    else:  # "equal apart from reduction order": the unfused pair is held to the same bounds
        assert_same(outs[0], unfused[0])  # both are mhc_post's FMA order
        check(case, unfused, post, pre_args, what="unfused")


@pytest.mark.parametrize("n,d", [(4, 513), (4, 512), (1, 65), (8, 256)])
def test_carrying_new_pre_back_gives_the_v4_seam(n, d, device):
    """Carrying the seam's own new_pre back in as pre_mix reproduces mhc_fused_post_pre (V4's seam, which
    collapses with its own pre weights): the delay changes which weights collapse, nothing else.
    Bitwise where one engine runs both ops (the CPU; the n = 4 pipeline on CUDA, D a multiple of 256);
    the general CUDA kernels of the two ops sum the projection in different orders, so there the mixes
    agree to the spec's 1e-5 and the outputs to 1 bf16 ulp."""
    case = Case((33,), n, d, norm=True)
    post, pre_args = make(case, "identity", seed_of("mhc_fused_delayed-vs-v4", case), device)
    v4 = OPS.mhc_fused_post_pre(*post.args(), *pre_args[:8], pre_args[10], pre_args[11])
    first = OP(*op_args(post, pre_args))
    carried = list(pre_args)
    carried[8] = first[4]
    second = OP(*op_args(post, carried))
    if device == "cpu" or (n == 4 and d % 256 == 0):
        assert_same(first[:3], v4[:3])
        assert_same(second[3], v4[3])
    else:
        assert_same(first[0], v4[0])  # both are mhc_post's FMA order
        for got, want in zip(first[1:3], v4[1:3]):
            torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6)
        torch.testing.assert_close(second[3].float(), v4[3].float(), rtol=2**-7, atol=0)


@pytest.mark.parametrize("lead", [(), (0,), (2, 0), (5,), (2, 3)], ids=lambda l: f"lead{list(l)}")
@pytest.mark.parametrize("entry", ENTRIES)
def test_shapes(lead, entry, device):
    """Output order: residual_out, post_mix, comb_mix, layer_input, new_pre."""
    post, pre_args = make(Case(lead, 3, 65, norm=True), entry, 1, device)
    outs = OP(*op_args(post, pre_args))
    want = [((*lead, 3, 65), torch.bfloat16), ((*lead, 3, 1), torch.float32), ((*lead, 3, 3), torch.float32),
            ((*lead, 65), torch.bfloat16), ((*lead, 3), torch.float32)]
    assert [(tuple(o.shape), o.dtype) for o in outs] == want
    assert all(o.device == post.residual.device and o.is_contiguous() for o in outs)


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("n,d", [(4, 513), (3, 4096), (8, 65)])
def test_deterministic_and_batch_invariant(n, d, entry, device):
    case = Case((33,), n, d, norm=n == 4, repeat=7)
    post, pre_args = make(case, entry, seed_of("mhc_fused_delayed-inv", case, entry), device)
    args = op_args(post, pre_args)
    assert_same(OP(*args), OP(*args))

    def per_token(t):
        one = lambda a: a[t:t + 1].clone()  # noqa: E731
        pre_mix = None if pre_args[8] is None else one(pre_args[8])
        return (*map(one, post.args()), *pre_args[:8], pre_mix, *pre_args[10:])

    assert_batch_invariant(OP, args, per_token, 33)


def _bad_cases():
    """(id, arg index -> replacement, exact message tail), on residual [3, 4, 8]."""
    n, d = 4, 8
    z = lambda *s, dt=torch.float32: torch.zeros(*s, dtype=dt)  # noqa: E731
    bf = torch.bfloat16
    return [
        ("x-shape", {0: z(3, d + 1, dt=bf)}, "x must have shape [3, 8], got [3, 9]"),
        ("x-dtype", {0: z(3, d)}, "x must have dtype BFloat16, got Float"),
        ("residual-dtype", {1: z(3, n, d)}, "residual must have dtype BFloat16, got Float"),
        ("residual-n9", {1: z(3, 9, d, dt=bf)},
         "residual.shape[-2] (hc_mult n) must be in 1..8, got 9 (shape [3, 9, 8])"),
        ("post-shape", {2: z(3, n, 2)}, "post_layer_mix must be [..., n, 1] or [..., n] with the leading dims and "
                                        "n of residual [3, 4, 8], got [3, 4, 2]"),
        ("comb-shape", {3: z(3, n, n + 1)}, "comb_res_mix must have shape [3, 4, 4], got [3, 4, 5]"),
        ("fn-width-D", {4: z(24, d)}, "fn must have shape [24, 32], got [24, 8]"),
        ("hc_scale-shape", {5: z(1)}, "hc_scale must have shape [3], got [1]"),
        ("hc_base-shape", {6: z(23)}, "hc_base must have shape [24], got [23]"),
        ("rms_eps-neg", {7: -1.0}, "rms_eps must be a finite value >= 0, got -1"),
        ("mult-nan", {10: float("nan")}, "hc_post_mult_value must be finite, got nan"),
        ("repeat-0", {11: 0}, "sinkhorn_repeat must be in 1..1048576, got 0"),
        ("pre_mix-shape", {12: z(3, n + 1)}, "pre_mix must have shape [3, 4], got [3, 5]"),
        ("pre_mix-dtype", {12: z(3, n, dt=bf)}, "pre_mix must have dtype Float, got BFloat16"),
        ("pre_mix-noncontig", {12: z(n, 3).t()}, "pre_mix must be contiguous, got shape [3, 4] with strides [1, 3]"),
        ("norm_weight-shape", {13: z(n, d, dt=bf)}, "norm_weight must have shape [8], got [4, 8]"),
        ("norm_eps-neg", {14: -1e-6}, "norm_eps must be a finite value >= 0, got -1e-06"),
    ]


@pytest.mark.parametrize("change,message", [c[1:] for c in _bad_cases()], ids=[c[0] for c in _bad_cases()])
def test_validation(change, message):
    post, pre_args = make(Case((3,), 4, 8), "carried", 0)
    args = list(op_args(post, pre_args))
    for i, v in change.items():
        args[i] = v
    with pytest.raises(RuntimeError, match=re.escape("dsv4ext.mhc_fused_post_pre_delayed: " + message)):
        OP(*args)


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("norm", [False, True], ids=["nonorm", "norm"])
def test_opcheck(entry, norm, device):
    post, pre_args = make(Case((2, 3), 3, 20, norm=norm, repeat=3), entry, 5, device)
    torch.library.opcheck(OP.default, op_args(post, pre_args))


@pytest.mark.parametrize("fake_device", FAKE_DEVICES)
@pytest.mark.parametrize("lead", [(), (0,), (2, 5)], ids=lambda l: f"lead{list(l)}")
def test_fake_shapes(lead, fake_device):
    n, d = 4, 7168
    with FakeTensorMode():
        e = lambda *s, dt=torch.float32: torch.empty(*s, dtype=dt, device=fake_device)  # noqa: E731
        outs = OP(e(*lead, d, dt=torch.bfloat16), e(*lead, n, d, dt=torch.bfloat16), e(*lead, n, 1), e(*lead, n, n),
                  e(24, n * d), e(3), e(24), 1e-6, 1e-6, 1e-6, 2.0, 20, e(*lead, n), e(d, dt=torch.bfloat16), 1e-6)
    want = [((*lead, n, d), torch.bfloat16), ((*lead, n, 1), torch.float32), ((*lead, n, n), torch.float32),
            ((*lead, d), torch.bfloat16), ((*lead, n), torch.float32)]
    assert [(tuple(o.shape), o.dtype) for o in outs] == want
    assert all(o.device.type == fake_device and o.is_contiguous() for o in outs)


@pytest.mark.gpu
@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("n,d,tokens", [(4, 4096, 1), (4, 4096, 33), (4, 7168, 1024), (8, 513, 17), (1, 65, 5)])
def test_cuda_graph_replay(n, d, tokens, entry):
    case = Case((tokens,), n, d, norm=True)

    def make_args(i):
        post, pre_args = make(case, entry, seed_of("mhc_fused_delayed-graph", case, entry, i), "cuda")
        return op_args(post, pre_args)

    assert_graph_replay_matches_eager(OP, make_args)


@pytest.mark.gpu
@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("case", [Case((1,), 4, 7168, norm=True), Case((128,), 4, 7168, norm=True),
                                  Case((1024,), 8, 513, rms_eps=1e-20), Case((33,), 1, 65, norm=True)], ids=str)
def test_cuda_agrees_with_cpu(case, entry):
    """Same inputs on both backends: each residual_out within the bound of the float64 post, and each pre
    half within the bound of the float64 delayed pre on that backend's own residual_out."""
    post, pre_args = make(case, entry, seed_of("mhc_fused_delayed-cpu-cuda", case, entry))
    cpu = OP(*op_args(post, pre_args))
    cuda_args = [a.cuda() if torch.is_tensor(a) else a for a in op_args(post, pre_args)]
    cuda = tuple(o.cpu() for o in OP(*cuda_args))
    for outs, what in ((cpu, "cpu"), (cuda, "cuda")):
        check(case, outs, post, pre_args, what=what)
