"""hc_head (shared/spec/ops.md §3.8, §3.11, §6.2): accuracy against the float64 reference with poisoned
outputs (the normalised input is not rounded to bf16 before the projection), shapes, run-to-run and batch
invariance, validation messages, opcheck / fake tensors, and (GPU) CUDA-graph replay and CPU agreement."""

import re

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from dsv4ext import reference as ref
from mhc_cases import (CASES, FAKE_DEVICES, OPS, Case, PreInputs, assert_batch_invariant,
                       assert_graph_replay_matches_eager, assert_same, assert_spans_match, check_collapse, nbytes,
                       run_poisoned, seed_of, streams)

OP = OPS.hc_head


def make(case: Case, seed: int, device="cpu"):
    """(hidden_states, fn [n, K], hc_scale [1], hc_base [n], rms_eps, hc_eps) and the PreInputs that
    describe the same weights (pre_weights() gives hc_head's pre with hc_eps)."""
    torch.manual_seed(seed)
    hidden = streams(case.lead, case.n, case.d)
    w = PreInputs.make(Case(case.lead, case.n, case.d, rms_eps=case.rms_eps, pre_eps=case.pre_eps), rows=case.n,
                       scales=1)
    args = (hidden, w.fn, w.hc_scale, w.hc_base, case.rms_eps, case.pre_eps)
    return tuple(a.to(device) if torch.is_tensor(a) else a for a in args), w


def check(out, args, w: PreInputs, what="hc_head"):
    hidden = args[0].cpu()
    assert out.shape == (*hidden.shape[:-2], hidden.shape[-1]) and out.dtype == torch.bfloat16
    exact = ref.hc_head(*(a.cpu() if torch.is_tensor(a) else a for a in args), exact=True)
    check_collapse(out, exact, hidden, w.pre_weights(hidden), None, 0.0, what=what)


# hc_head has no norm, repeat or multiplier: the grid's (T, n, D, rms_eps, hc_eps = pre_eps) points.
GRID = list(dict.fromkeys(Case(c.lead, c.n, c.d, rms_eps=c.rms_eps, pre_eps=c.pre_eps) for c in CASES))


@pytest.mark.parametrize("case", GRID, ids=lambda c: f"T{'x'.join(map(str, c.lead)) or 'none'}-n{c.n}-D{c.d}"
                                                    f"-eps{c.rms_eps:g}-hceps{c.pre_eps:g}")
def test_accuracy(case, device):
    args, w = make(case, seed_of("hc_head", case), device)
    out = run_poisoned(OP, args, nbytes(((case.tokens, case.d), torch.bfloat16)), device)
    assert out.device == args[0].device and out.is_contiguous()
    check(out, args, w)


@pytest.mark.parametrize("lead", [(), (0,), (2, 0), (5,), (2, 3)], ids=lambda l: f"lead{list(l)}")
def test_shapes(lead, device):
    args, _ = make(Case(lead, 3, 65), 1, device)
    out = OP(*args)
    assert out.shape == (*lead, 65) and out.dtype == torch.bfloat16
    assert out.device == args[0].device and out.is_contiguous()


@pytest.mark.parametrize("n,d", [(4, 513), (3, 4096), (8, 65), (4, 4096)])
def test_deterministic_and_batch_invariant(n, d, device):
    args, _ = make(Case((33,), n, d), seed_of("hc_head-inv", n, d), device)
    hidden, rest = args[0], args[1:]
    assert_same(OP(*args), OP(*args))
    assert_batch_invariant(OP, args, lambda t: (hidden[t:t + 1].clone(), *rest), 33)
    assert_same(OP(hidden.view(3, 11, n, d), *rest).flatten(0, 1), OP(*args))


def _bad_cases():
    n, d = 4, 8
    z = lambda *s, dt=torch.float32: torch.zeros(*s, dtype=dt)  # noqa: E731
    bf = torch.bfloat16
    return [
        ("hidden-dtype", {0: z(3, n, d)}, "hidden_states must have dtype BFloat16, got Float"),
        ("hidden-rank", {0: z(d, dt=bf)}, "hidden_states must be [..., n, D] (at least 2-D), got shape [8]"),
        ("hidden-n0", {0: z(3, 0, d, dt=bf)},
         "hidden_states.shape[-2] (hc_mult n) must be in 1..8, got 0 (shape [3, 0, 8])"),
        ("hidden-n9", {0: z(3, 9, d, dt=bf)},
         "hidden_states.shape[-2] (hc_mult n) must be in 1..8, got 9 (shape [3, 9, 8])"),
        ("hidden-D0", {0: z(3, n, 0, dt=bf)}, "hidden_states.shape[-1] (D) must be >= 1, got shape [3, 4, 0]"),
        ("hidden-noncontig", {0: z(3, d, n, dt=bf).transpose(-1, -2)},
         "hidden_states must be contiguous, got shape [3, 4, 8] with strides [32, 1, 4]"),
        ("fn-mhc-rows", {1: z(24, 32)}, "fn must have shape [4, 32], got [24, 32]"),
        ("fn-K", {1: z(4, 8)}, "fn must have shape [4, 32], got [4, 8]"),
        ("fn-dtype", {1: z(4, 32, dt=bf)}, "fn must have dtype Float, got BFloat16"),
        ("fn-noncontig", {1: z(32, 4).t()}, "fn must be contiguous, got shape [4, 32] with strides [1, 4]"),
        ("hc_scale-shape", {2: z(3)}, "hc_scale must have shape [1], got [3]"),
        ("hc_scale-scalar", {2: torch.tensor(0.0)}, "hc_scale must have shape [1], got []"),
        ("hc_scale-dtype", {2: z(1, dt=torch.float64)}, "hc_scale must have dtype Float, got Double"),
        ("hc_base-shape", {3: z(24)}, "hc_base must have shape [4], got [24]"),
        ("hc_base-dtype", {3: z(4, dt=bf)}, "hc_base must have dtype Float, got BFloat16"),
        ("rms_eps-neg", {4: -1e-6}, "rms_eps must be a finite value >= 0, got -1e-06"),
        ("hc_eps-neg", {5: -1.0}, "hc_eps must be a finite value >= 0, got -1"),
        ("hc_eps-inf", {5: float("inf")}, "hc_eps must be a finite value >= 0, got inf"),
    ]


@pytest.mark.parametrize("change,message", [c[1:] for c in _bad_cases()], ids=[c[0] for c in _bad_cases()])
def test_validation(change, message):
    args = list(make(Case((3,), 4, 8), 0)[0])
    for i, v in change.items():
        args[i] = v
    with pytest.raises(RuntimeError, match=re.escape("dsv4ext.hc_head: " + message)):
        OP(*args)


@pytest.mark.parametrize("lead", [(2, 3), ()], ids=lambda l: f"lead{list(l)}")
def test_opcheck(lead, device):
    torch.library.opcheck(OP.default, make(Case(lead, 3, 20), 5, device)[0])


@pytest.mark.parametrize("fake_device", FAKE_DEVICES)
@pytest.mark.parametrize("lead", [(), (0,), (2, 5)], ids=lambda l: f"lead{list(l)}")
def test_fake_shapes(lead, fake_device):
    n, d = 4, 7168
    with FakeTensorMode():
        e = lambda *s, dt=torch.float32: torch.empty(*s, dtype=dt, device=fake_device)  # noqa: E731
        out = OP(e(*lead, n, d, dt=torch.bfloat16), e(n, n * d), e(1), e(n), 1e-6, 1e-6)
    assert tuple(out.shape) == (*lead, d) and out.dtype == torch.bfloat16
    assert out.device.type == fake_device and out.is_contiguous()


@pytest.mark.gpu
@pytest.mark.parametrize("tokens,d", [(1, 4096), (16, 4096), (33, 4096), (1024, 4096), (1600, 7168)])
def test_cuda_graph_replay(tokens, d):
    case = Case((tokens,), 4, d)
    assert_graph_replay_matches_eager(OP, lambda i: make(case, seed_of("hc_head-graph", case, i), "cuda")[0])


@pytest.mark.gpu
def test_cuda_batch_invariant_across_kernels_d7168():
    """§3.11 at D = 7168 (n = 4), where hc_head takes the pipeline kernel (16-token tiles, the tf32
    engine) below 1536 tokens and the TMA kernel (32-token tiles held in shared memory, the same tf32
    chains on mma.sync, two warp pairs taking alternate tiles) from there on. A 2093-token batch (a
    partial last tile, magnitudes over six decades) against single tokens and spans on both paths, one
    of them off the 32-token tile grid. (D = 4096: test_mhc_pre.py's across-kernels test.)"""
    n, d, t = 4, 7168, 2093
    case = Case((t,), n, d, rms_eps=1e-20)
    args, _ = make(case, seed_of("hc_head-kernels-7168", case), "cuda")  # streams(): six decades a token
    calls = {"hc_head": lambda s: OP(args[0][s], *args[1:])}
    spans = [(tok, tok + 1) for tok in (0, 31, 32, 1535, 1536, t - 1)] + [(5, 70), (100, 116), (37, 1600),
                                                                       (t - 1540, t), (t - 13, t)]
    assert_spans_match(calls, spans)


@pytest.mark.gpu
@pytest.mark.parametrize("case", [Case((128,), 4, 7168), Case((1024,), 8, 513, rms_eps=1e-20),
                                  Case((2600,), 4, 7168), Case((1537,), 4, 7168, rms_eps=1e-20)], ids=str)
def test_cuda_agrees_with_cpu(case):
    """Same inputs on both backends, each within the bound of the float64 reference."""
    args, w = make(case, seed_of("hc_head-cpu-cuda", case))
    check(OP(*(a.cuda() if torch.is_tensor(a) else a for a in args)).cpu(), args, w, what="cuda")
    check(OP(*args), args, w, what="cpu")


@pytest.mark.gpu
def test_cuda_device_mismatch():
    args = list(make(Case((3,), 4, 8), 0, "cuda")[0])
    args[3] = args[3].cpu()
    with pytest.raises(RuntimeError, match=re.escape("dsv4ext.hc_head: hc_base must be on the same device as "
                                                     "hidden_states (cuda:0), got cpu")):
        OP(*args)
