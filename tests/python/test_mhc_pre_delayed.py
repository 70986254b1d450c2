"""mhc_pre_delayed (DeepSeek-V4.1, docs/ops.md): accuracy against the float64 reference for every entry
(broadcast: x with fn of width D; identity: no pre_mix; carried: the previous sub-layer's pre_mix) over
n in {1, 4, 8}, odd D, T = 0 and norm on/off with poisoned outputs; the mixes equal mhc_pre's; shapes,
batch invariance, validation messages, opcheck / fake tensors, and (GPU) CUDA-graph replay and CPU
agreement."""

import re
from math import sqrt

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from conftest import assert_fp32_close
from mhc_cases import (FAKE_DEVICES, MIX_RTOL, MIX_ATOL, OPS, Case, PreInputs, assert_batch_invariant,
                       assert_graph_replay_matches_eager, assert_same, check_collapse, nbytes, run_poisoned,
                       seed_of, streams, tokens_bf16)
from dsv4ext import reference as ref

OP = OPS.mhc_pre_delayed
ENTRIES = ["broadcast", "identity", "carried"]

CASES = [
    Case((0,), 4, 256, norm=True),
    Case((1,), 4, 4096, norm=True),
    Case((1,), 1, 65),
    Case((7,), 1, 513, norm=True, rms_eps=1e-20, repeat=1),
    Case((17,), 4, 257, norm=True, repeat=7, pre_eps=0.25, sink_eps=0.05),
    Case((33,), 8, 65, norm=True, rms_eps=1e-20),
    Case((33,), 4, 1029),
    Case((128,), 8, 513, repeat=7, mult=1.0),
    Case((300,), 4, 1280, norm=True, norm_eps=1e-20),
    # CUDA n = 4 pipeline: bf16-part engine (D = 4096) and fp32 slice (D = 7168), many tiles per
    # cluster, T not a multiple of the 16-token tile (lag and ring edges).
    Case((2077,), 4, 4096, norm=True),
    Case((1500,), 4, 4096, rms_eps=1e-20),
    # The TMA kernel's ring collapse (n = 4, D = 4096, no norm, from 1024 tokens): 2-3 tiles a
    # cluster (the two-tile signal lag), a partial last tile, many tiles.
    Case((1024,), 4, 4096),
    Case((1025,), 4, 4096, repeat=7),
    Case((2629,), 4, 4096, pre_eps=0.25),
    Case((700,), 4, 7168, norm=True),
    Case((2, 3), 4, 256, norm=True, rms_eps=1e-20),
    Case((), 4, 513, norm=True),
]


def make(case: Case, entry: str, seed: int, device="cpu"):
    """(residual, args after it) of one entry: broadcast = the first layer's streams, x copied n times,
    fn [M3, D]; carried = a pre_mix in the range of the op's own new_pre (sigmoid + eps)."""
    torch.manual_seed(seed)
    lead, n, d = case.lead, case.n, case.d
    pre = PreInputs.make(case)
    pre_mix, x = None, None
    if entry == "broadcast":
        x = tokens_bf16(lead, d)
        residual = x.unsqueeze(-2).expand(*lead, n, d).contiguous()
        pre.fn = torch.randn(n * (n + 2), d) / sqrt(d)
    else:
        residual = streams(lead, n, d)
        if entry == "carried":
            pre_mix = torch.rand(*lead, n) + case.pre_eps
    c = case
    args = (pre.fn, pre.hc_scale, pre.hc_base, c.rms_eps, c.pre_eps, c.sink_eps, c.mult, c.repeat, pre_mix, x,
            pre.norm_weight, c.norm_eps)
    to = lambda a: a.to(device) if torch.is_tensor(a) else a  # noqa: E731
    return residual.to(device), tuple(map(to, args))


def out_bytes(case: Case) -> int:
    t, n, d = case.tokens, case.n, case.d
    return nbytes(((t, n, 1), torch.float32), ((t, n, n), torch.float32), ((t, d), torch.bfloat16),
                  ((t, n), torch.float32))


def check(case: Case, outs, residual, args, what="mhc_pre_delayed"):
    post, comb, layer_input, new_pre = outs
    lead, n, d = residual.shape[:-2], case.n, case.d
    assert [(tuple(o.shape), o.dtype) for o in outs] == [
        ((*lead, n, 1), torch.float32), ((*lead, n, n), torch.float32), ((*lead, d), torch.bfloat16),
        ((*lead, n), torch.float32)]
    cpu_args = [a.cpu() if torch.is_tensor(a) else a for a in args]
    want = ref.mhc_pre_delayed(residual.cpu(), *cpu_args, exact=True)
    for got, exact, name in zip((post, comb, new_pre), (want[0], want[1], want[3]), ("post_mix", "comb_mix", "new_pre")):
        assert_fp32_close(got, exact, MIX_RTOL, MIX_ATOL, what=f"{what} {name}")
    pre_mix, norm_weight = cpu_args[8], cpu_args[10]
    r = residual.cpu()
    if pre_mix is None:
        if norm_weight is None:  # stream 0, bitwise
            assert torch.equal(layer_input.cpu(), r[..., 0, :]), f"{what} layer_input != residual[..., 0, :]"
            return
        pre_mix = torch.zeros(*lead, n)
        pre_mix[..., 0] = 1.0
    check_collapse(layer_input, want[2], r, pre_mix.double(), norm_weight, case.norm_eps, what=f"{what} layer_input")


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("case", CASES, ids=str)
def test_accuracy(case, entry, device):
    residual, args = make(case, entry, seed_of("mhc_pre_delayed", case, entry), device)
    outs = run_poisoned(OP, (residual, *args), out_bytes(case), device)
    assert all(o.device == residual.device and o.is_contiguous() for o in outs)
    check(case, outs, residual, args)


@pytest.mark.parametrize("n,d", [(4, 513), (1, 65), (8, 256)])
def test_mixes_and_carried_collapse_match_mhc_pre(n, d, device):
    """Without x the mixes are mhc_pre's, bitwise; carrying mhc_pre's own pre weights back in (new_pre)
    reproduces its layer_input, bitwise: the delay changes which weights collapse, nothing else."""
    case = Case((33,), n, d, norm=True)
    residual, args = make(case, "identity", seed_of("mhc_pre_delayed-vs-pre", case), device)
    post, comb, li = OPS.mhc_pre(residual, *args[:8], args[10], args[11])
    d_post, d_comb, _, new_pre = OP(residual, *args)
    assert_same((d_post, d_comb), (post, comb))
    carried = list(args)
    carried[8] = new_pre
    assert_same(OP(residual, *carried)[2], li)


@pytest.mark.parametrize("lead", [(), (0,), (2, 0), (5,), (2, 3)], ids=lambda l: f"lead{list(l)}")
@pytest.mark.parametrize("entry", ENTRIES)
def test_shapes(lead, entry, device):
    case = Case(lead, 3, 65, norm=True)
    residual, args = make(case, entry, 1, device)
    outs = OP(residual, *args)
    want = [((*lead, 3, 1), torch.float32), ((*lead, 3, 3), torch.float32), ((*lead, 65), torch.bfloat16),
            ((*lead, 3), torch.float32)]
    assert [(tuple(o.shape), o.dtype) for o in outs] == want
    assert all(o.device == residual.device and o.is_contiguous() for o in outs)


@pytest.mark.parametrize("entry", ENTRIES)
def test_deterministic_and_batch_invariant(entry, device):
    case = Case((33,), 4, 513, norm=True, repeat=7)
    residual, args = make(case, entry, seed_of("mhc_pre_delayed-inv", case, entry), device)
    assert_same(OP(residual, *args), OP(residual, *args))
    per_token = lambda t: [a[t:t + 1].clone() if torch.is_tensor(a) and i in (8, 9) else a  # noqa: E731
                           for i, a in enumerate(args)]
    assert_batch_invariant(OP, (residual, *args), lambda t: (residual[t:t + 1].clone(), *per_token(t)), 33)


def _bad_cases():
    """(id, arg index -> replacement, exact message tail), on residual [3, 4, 8]."""
    n, d = 4, 8
    r = lambda *s, dt=torch.bfloat16: torch.zeros(*s, dtype=dt)  # noqa: E731
    return [
        ("residual-dtype", {0: r(3, n, d, dt=torch.float32)}, "residual must have dtype BFloat16, got Float"),
        ("residual-rank", {0: r(d)}, "residual must be [..., n, D] (at least 2-D), got shape [8]"),
        ("residual-n9", {0: r(3, 9, d)}, "residual.shape[-2] (hc_mult n) must be in 1..8, got 9 (shape [3, 9, 8])"),
        ("fn-K", {1: torch.zeros(24, d)}, "fn must have shape [24, 32], got [24, 8]"),
        ("fn-K-broadcast", {10: r(3, d)}, "fn must have shape [24, 8], got [24, 32]"),
        ("hc_scale-shape", {2: torch.zeros(1)}, "hc_scale must have shape [3], got [1]"),
        ("rms_eps-neg", {4: -1e-6}, "rms_eps must be a finite value >= 0, got -1e-06"),
        ("repeat-0", {8: 0}, "sinkhorn_repeat must be in 1..1048576, got 0"),
        ("pre_mix-shape", {9: torch.zeros(3, n + 1)}, "pre_mix must have shape [3, 4], got [3, 5]"),
        ("pre_mix-dtype", {9: torch.zeros(3, n, dtype=torch.bfloat16)}, "pre_mix must have dtype Float, got BFloat16"),
        ("pre_mix-noncontig", {9: torch.zeros(n, 3).t()},
         "pre_mix must be contiguous, got shape [3, 4] with strides [1, 3]"),
        ("x-shape", {1: torch.zeros(24, d), 10: r(2, d)}, "x must have shape [3, 8], got [2, 8]"),
        ("x-dtype", {1: torch.zeros(24, d), 10: torch.zeros(3, d)}, "x must have dtype BFloat16, got Float"),
        ("norm_weight-shape", {11: r(d + 1)}, "norm_weight must have shape [8], got [9]"),
        ("norm_eps-neg", {12: -1e-6}, "norm_eps must be a finite value >= 0, got -1e-06"),
    ]


@pytest.mark.parametrize("change,message", [c[1:] for c in _bad_cases()], ids=[c[0] for c in _bad_cases()])
def test_validation(change, message):
    residual, args = make(Case((3,), 4, 8), "identity", 0)
    args = [residual, *args]
    for i, v in change.items():
        args[i] = v
    with pytest.raises(RuntimeError, match=re.escape("dsv4ext.mhc_pre_delayed: " + message)):
        OP(*args)


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("norm", [False, True], ids=["nonorm", "norm"])
def test_opcheck(entry, norm, device):
    residual, args = make(Case((2, 3), 3, 20, norm=norm, repeat=3), entry, 5, device)
    torch.library.opcheck(OP.default, (residual, *args))


@pytest.mark.parametrize("fake_device", FAKE_DEVICES)
@pytest.mark.parametrize("lead", [(), (0,), (2, 5)], ids=lambda l: f"lead{list(l)}")
def test_fake_shapes(lead, fake_device):
    n, d = 4, 7168
    with FakeTensorMode():
        e = lambda *s, dt=torch.float32: torch.empty(*s, dtype=dt, device=fake_device)  # noqa: E731
        outs = OP(e(*lead, n, d, dt=torch.bfloat16), e(24, n * d), e(3), e(24), 1e-6, 1e-6, 1e-6, 2.0, 20,
                  e(*lead, n), None, e(d, dt=torch.bfloat16), 1e-6)
    want = [((*lead, n, 1), torch.float32), ((*lead, n, n), torch.float32), ((*lead, d), torch.bfloat16),
            ((*lead, n), torch.float32)]
    assert [(tuple(o.shape), o.dtype) for o in outs] == want
    assert all(o.device.type == fake_device and o.is_contiguous() for o in outs)


@pytest.mark.gpu
@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("tokens", [1, 33, 1024])
def test_cuda_graph_replay(tokens, entry):
    case = Case((tokens,), 4, 4096, norm=True)
    assert_graph_replay_matches_eager(
        OP, lambda i: (lambda r, a: (r, *a))(*make(case, entry, seed_of("mhc_pre_delayed-graph", case, i), "cuda")))


@pytest.mark.gpu
@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("case", [Case((128,), 4, 7168, norm=True), Case((1024,), 8, 513, rms_eps=1e-20),
                                  Case((33,), 1, 65, norm=True), Case((1100,), 4, 7168, norm=True),
                                  Case((1025,), 4, 7168)], ids=str)
def test_cuda_agrees_with_cpu(case, entry):
    """Both backends are held to the float64 reference by test_accuracy; here the same inputs on both."""
    residual, args = make(case, entry, seed_of("mhc_pre_delayed-cpu-cuda", case, entry))
    cpu = OP(residual, *args)
    cuda = OP(residual.cuda(), *[a.cuda() if torch.is_tensor(a) else a for a in args])
    check(case, tuple(o.cpu() for o in cuda), residual, args, what="cuda")
    check(case, cpu, residual, args, what="cpu")
