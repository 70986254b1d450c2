"""sinkhorn (shared/spec/ops.md §3.4, §5 item 11): agreement with the float64 reference for n = 1..8 and
repeat in {1, 7, 20} with poisoned outputs, column sums 1 - O(eps), n = 1, eps = 0, shapes, run-to-run
and batch invariance, validation messages, opcheck / fake tensors, and (GPU) CUDA-graph replay."""

import re

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from conftest import FP32_EPS, assert_fp32_close
from dsv4ext import reference as ref
from mhc_cases import (FAKE_DEVICES, OPS, assert_batch_invariant, assert_graph_replay_matches_eager, assert_same,
                       nbytes, run_poisoned, seed_of)

OP = OPS.sinkhorn
EPS = 1e-6
# Measured worst relative error: 3e-6 at repeat 20, every entry (the smallest are ~1e-8): no atol.
RTOL = 1e-5


def logits(lead, n, seed, device="cpu", scale=3.0):
    torch.manual_seed(seed)
    return (torch.randn(*lead, n, n) * scale).to(device)


@pytest.mark.parametrize("eps", [EPS, 0.1])  # 0.1: where eps enters shows above the tolerance
@pytest.mark.parametrize("repeat", [1, 7, 20])
@pytest.mark.parametrize("n", range(1, 9))
def test_accuracy(n, repeat, eps, device):
    lead = (2, 97) if n % 2 else (193,)
    x = logits(lead, n, seed_of("sinkhorn", n, repeat, eps), device)
    out = run_poisoned(OP, (x, repeat, eps), nbytes((x.shape, torch.float32)), device)
    assert out.shape == x.shape and out.dtype == torch.float32 and out.is_contiguous()
    assert_fp32_close(out, ref.sinkhorn(x.cpu(), repeat, eps, exact=True), RTOL, 0.0, what="sinkhorn")
    # §3.4 / §5.11: the last step scales each column to sum S / (S + eps), S its sum before the step:
    # ~1 once rows have been normalised (repeat > 1); for repeat = 1, S = sum_i softmax + n eps.
    cols = out.double().sum(-2).cpu()
    if repeat == 1:
        s = torch.softmax(x.cpu().double(), -1).sum(-2) + n * eps
        assert ((cols - s / (s + eps)).abs() <= 4 * n * FP32_EPS).all()
    else:
        assert ((cols <= 1 + 4 * n * FP32_EPS) & (cols >= 1 - 3 * eps)).all()


def test_n1_is_one(device):
    out = OP(logits((50,), 1, 3, device, scale=30.0), 20, EPS)
    assert ((out - 1).abs() <= 2 * EPS).all()


@pytest.mark.parametrize("n", [2, 5, 8])
def test_eps_zero(n, device):
    """eps = 0 is allowed (§2.2): columns sum to 1 up to fp32 rounding."""
    x = logits((64,), n, seed_of("sinkhorn-eps0", n), device)
    out = OP(x, 7, 0.0)
    assert_fp32_close(out, ref.sinkhorn(x.cpu(), 7, 0.0, exact=True), RTOL, 0.0, what="sinkhorn eps=0")
    assert ((out.double().sum(-2) - 1).abs() <= 4 * n * FP32_EPS).all()


@pytest.mark.parametrize("lead", [(), (0,), (2, 0), (5,), (2, 3)], ids=lambda l: f"lead{list(l)}")
def test_shapes(lead, device):
    x = logits(lead, 4, 1, device)
    out = OP(x, 20, EPS)
    assert out.shape == x.shape and out.dtype == torch.float32
    assert out.device == x.device and out.is_contiguous()


@pytest.mark.parametrize("n", [3, 4, 8])
def test_deterministic_and_batch_invariant(n, device):
    x = logits((33,), n, seed_of("sinkhorn-inv", n), device)
    assert_same(OP(x, 20, EPS), OP(x, 20, EPS))
    assert_batch_invariant(OP, (x, 20, EPS), lambda t: (x[t:t + 1].clone(), 20, EPS), 33)
    assert_same(OP(x.view(3, 11, n, n), 20, EPS).flatten(0, 1), OP(x, 20, EPS))


BAD = [
    ("dtype", (torch.zeros(3, 3, dtype=torch.float64), 1, EPS), "logits must have dtype Float, got Double"),
    ("bf16", (torch.zeros(3, 3, dtype=torch.bfloat16), 1, EPS), "logits must have dtype Float, got BFloat16"),
    ("rank1", (torch.zeros(3), 1, EPS), "logits must be [..., n, n], got shape [3]"),
    ("non-square", (torch.zeros(2, 3, 4), 1, EPS), "logits must be [..., n, n], got shape [2, 3, 4]"),
    ("n0", (torch.zeros(2, 0, 0), 1, EPS), "logits.shape[-1] (n) must be in 1..8, got 0"),
    ("n9", (torch.zeros(9, 9), 1, EPS), "logits.shape[-1] (n) must be in 1..8, got 9"),
    ("noncontig", (torch.zeros(3, 3).t(), 1, EPS), "logits must be contiguous, got shape [3, 3] with strides [1, 3]"),
    ("repeat0", (torch.zeros(3, 3), 0, EPS), "repeat must be in 1..1048576, got 0"),
    ("repeat-neg", (torch.zeros(3, 3), -1, EPS), "repeat must be in 1..1048576, got -1"),
    ("eps-neg", (torch.zeros(3, 3), 1, -1e-6), "eps must be a finite value >= 0, got -1e-06"),
    ("eps-nan", (torch.zeros(3, 3), 1, float("nan")), "eps must be a finite value >= 0, got nan"),
]


@pytest.mark.parametrize("args,message", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_validation(args, message):
    with pytest.raises(RuntimeError, match=re.escape("dsv4ext.sinkhorn: " + message)):
        OP(*args)


@pytest.mark.parametrize("lead", [(2, 3), ()], ids=lambda l: f"lead{list(l)}")
def test_opcheck(lead, device):
    torch.library.opcheck(OP.default, (logits(lead, 4, 5, device), 7, EPS))


@pytest.mark.parametrize("fake_device", FAKE_DEVICES)
@pytest.mark.parametrize("lead", [(), (0,), (2, 5)], ids=lambda l: f"lead{list(l)}")
def test_fake_shapes(lead, fake_device):
    with FakeTensorMode():
        out = OP(torch.empty(*lead, 4, 4, device=fake_device), 20, EPS)
    assert tuple(out.shape) == (*lead, 4, 4) and out.dtype == torch.float32
    assert out.device.type == fake_device and out.is_contiguous()


@pytest.mark.gpu
@pytest.mark.parametrize("tokens", [1, 1024])
def test_cuda_graph_replay(tokens):
    assert_graph_replay_matches_eager(OP, lambda i: (logits((tokens,), 4, seed_of("sinkhorn-graph", i), "cuda"), 20,
                                                     EPS))


@pytest.mark.gpu
@pytest.mark.parametrize("n", [1, 4, 8])
def test_cuda_agrees_with_cpu(n):
    x = logits((4096,), n, seed_of("sinkhorn-cpu-cuda", n))
    want = ref.sinkhorn(x, 20, EPS, exact=True)
    assert_fp32_close(OP(x.cuda(), 20, EPS), want, RTOL, 0.0, what="cuda")
    assert_fp32_close(OP(x, 20, EPS), want, RTOL, 0.0, what="cpu")
