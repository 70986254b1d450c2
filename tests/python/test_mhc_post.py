"""mhc_post (shared/spec/ops.md §3.6, §3.11, §6.2): accuracy against the float64 reference with a random
(non-symmetric) comb and poisoned outputs, the transposed-comb convention with a permutation, both
post_layer_mix layouts, shapes, run-to-run and batch invariance, validation messages, opcheck / fake
tensors, and (GPU) CUDA-graph replay and CPU agreement."""

import re

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from mhc_cases import (CASES, FAKE_DEVICES, OPS, PostInputs, assert_batch_invariant,
                       assert_graph_replay_matches_eager, assert_same, nbytes, run_poisoned, seed_of)

OP = OPS.mhc_post


def make(lead, n, d, seed, device="cpu", post_n1=True) -> PostInputs:
    torch.manual_seed(seed)
    return PostInputs.make(lead, n, d, post_n1).to(device)


# The shared grid's (T, n, D) points; post_layer_mix alternates between [..., n, 1] and [..., n].
GRID = list(dict.fromkeys((c.lead, c.n, c.d) for c in CASES))


@pytest.mark.parametrize("lead,n,d,post_n1", [(*g, i % 2 == 0) for i, g in enumerate(GRID)],
                         ids=[f"T{'x'.join(map(str, l)) or 'none'}-n{n}-D{d}-post{'n1' if i % 2 == 0 else 'n'}"
                              for i, (l, n, d) in enumerate(GRID)])
def test_accuracy(lead, n, d, post_n1, device):
    inp = make(lead, n, d, seed_of("mhc_post", lead, n, d), device, post_n1)
    out = run_poisoned(OP, inp.args(), nbytes((inp.residual.shape, torch.bfloat16)), device)
    assert out.device == inp.residual.device and out.is_contiguous()
    inp.check(out)


@pytest.mark.parametrize("n", [2, 3, 4, 8])
def test_comb_is_applied_transposed(n, device):
    """Non-symmetric 0/1 comb C[i, i + 1] = 1 (a shift), post = 0: out[:, j] = sum_i C[i, j] R[i] =
    R[j - 1] (0 for j = 0), exactly. The wrong form C @ R would give R[j + 1]."""
    inp = make((5,), n, 96, seed_of("mhc_post-shift", n), device)
    comb = torch.diag(torch.ones(n - 1), 1).expand(5, n, n).contiguous().to(device)
    out = OP(inp.x, inp.residual, torch.zeros(5, n, 1, device=device), comb)
    want = torch.cat([torch.zeros_like(inp.residual[:, :1]), inp.residual[:, :-1]], dim=1)
    assert torch.equal(out, want)


def test_post_layout_n_equals_n1(device):
    """post_layer_mix as [..., n] and as [..., n, 1] (§2.1) give the same bits."""
    inp = make((2, 3), 4, 513, seed_of("mhc_post-layout"), device)
    flat = inp.post[..., 0].contiguous()
    assert_same(OP(inp.x, inp.residual, inp.post, inp.comb), OP(inp.x, inp.residual, flat, inp.comb))


@pytest.mark.parametrize("lead", [(), (0,), (2, 0), (5,), (2, 3)], ids=lambda l: f"lead{list(l)}")
def test_shapes(lead, device):
    inp = make(lead, 3, 65, 1, device)
    out = OP(*inp.args())
    assert out.shape == (*lead, 3, 65) and out.dtype == torch.bfloat16
    assert out.device == inp.residual.device and out.is_contiguous()


@pytest.mark.parametrize("n,d", [(4, 513), (3, 4096), (8, 65)])
def test_deterministic_and_batch_invariant(n, d, device):
    inp = make((33,), n, d, seed_of("mhc_post-inv", n, d), device)
    assert_same(OP(*inp.args()), OP(*inp.args()))
    assert_batch_invariant(OP, inp.args(), lambda t: tuple(a[t:t + 1].clone() for a in inp.args()), 33)
    folded = OP(*(a.view(3, 11, *a.shape[1:]) for a in inp.args()))
    assert_same(folded.flatten(0, 1), OP(*inp.args()))


def _bad_cases():
    n, d = 4, 8
    z = lambda *s, dt=torch.float32: torch.zeros(*s, dtype=dt)  # noqa: E731
    bf = torch.bfloat16
    return [
        ("x-dtype", {0: z(3, d)}, "x must have dtype BFloat16, got Float"),
        ("x-tokens", {0: z(2, d, dt=bf)}, "x must have shape [3, 8], got [2, 8]"),
        ("x-D", {0: z(3, d + 1, dt=bf)}, "x must have shape [3, 8], got [3, 9]"),
        ("x-streams", {0: z(3, n, d, dt=bf)}, "x must have shape [3, 8], got [3, 4, 8]"),
        ("x-noncontig", {0: z(d, 3, dt=bf).t()}, "x must be contiguous, got shape [3, 8] with strides [1, 3]"),
        ("residual-dtype", {1: z(3, n, d)}, "residual must have dtype BFloat16, got Float"),
        ("residual-rank", {1: z(d, dt=bf)}, "residual must be [..., n, D] (at least 2-D), got shape [8]"),
        ("residual-n9", {1: z(3, 9, d, dt=bf)},
         "residual.shape[-2] (hc_mult n) must be in 1..8, got 9 (shape [3, 9, 8])"),
        ("residual-n0", {1: z(3, 0, d, dt=bf)},
         "residual.shape[-2] (hc_mult n) must be in 1..8, got 0 (shape [3, 0, 8])"),
        ("residual-D0", {1: z(3, n, 0, dt=bf)}, "residual.shape[-1] (D) must be >= 1, got shape [3, 4, 0]"),
        ("residual-noncontig", {1: z(3, d, n, dt=bf).transpose(-1, -2)},
         "residual must be contiguous, got shape [3, 4, 8] with strides [32, 1, 4]"),
        ("post-dtype", {2: z(3, n, 1, dt=torch.float64)}, "post_layer_mix must have dtype Float, got Double"),
        ("post-tokens", {2: z(2, n, 1)}, "post_layer_mix must be [..., n, 1] or [..., n] with the leading dims and "
                                         "n of residual [3, 4, 8], got [2, 4, 1]"),
        ("post-n", {2: z(3, n + 1)}, "post_layer_mix must be [..., n, 1] or [..., n] with the leading dims and "
                                     "n of residual [3, 4, 8], got [3, 5]"),
        ("post-n2", {2: z(3, n, 2)}, "post_layer_mix must be [..., n, 1] or [..., n] with the leading dims and "
                                     "n of residual [3, 4, 8], got [3, 4, 2]"),
        ("post-noncontig", {2: z(3, 2 * n)[:, ::2]}, "post_layer_mix must be contiguous, got shape [3, 4] with "
                                                     "strides [8, 2]"),
        ("comb-dtype", {3: z(3, n, n, dt=bf)}, "comb_res_mix must have dtype Float, got BFloat16"),
        ("comb-shape", {3: z(3, n, n - 1)}, "comb_res_mix must have shape [3, 4, 4], got [3, 4, 3]"),
        ("comb-flat", {3: z(3, n * n)}, "comb_res_mix must have shape [3, 4, 4], got [3, 16]"),
        ("comb-noncontig", {3: z(3, n, n).transpose(-1, -2)},
         "comb_res_mix must be contiguous, got shape [3, 4, 4] with strides [16, 1, 4]"),
    ]


@pytest.mark.parametrize("change,message", [c[1:] for c in _bad_cases()], ids=[c[0] for c in _bad_cases()])
def test_validation(change, message):
    args = list(make((3,), 4, 8, 0).args())
    for i, v in change.items():
        args[i] = v
    with pytest.raises(RuntimeError, match=re.escape("dsv4ext.mhc_post: " + message)):
        OP(*args)


@pytest.mark.parametrize("post_n1", [True, False], ids=["post-n1", "post-n"])
def test_opcheck(post_n1, device):
    torch.library.opcheck(OP.default, make((2, 3), 3, 20, 5, device, post_n1).args())


@pytest.mark.parametrize("fake_device", FAKE_DEVICES)
@pytest.mark.parametrize("lead", [(), (0,), (2, 5)], ids=lambda l: f"lead{list(l)}")
def test_fake_shapes(lead, fake_device):
    n, d = 4, 7168
    with FakeTensorMode():
        e = lambda *s, dt=torch.float32: torch.empty(*s, dtype=dt, device=fake_device)  # noqa: E731
        out = OP(e(*lead, d, dt=torch.bfloat16), e(*lead, n, d, dt=torch.bfloat16), e(*lead, n, 1), e(*lead, n, n))
    assert tuple(out.shape) == (*lead, n, d) and out.dtype == torch.bfloat16
    assert out.device.type == fake_device and out.is_contiguous()


@pytest.mark.gpu
@pytest.mark.parametrize("tokens", [1, 33, 1024])
def test_cuda_graph_replay(tokens):
    assert_graph_replay_matches_eager(OP, lambda i: make((tokens,), 4, 4096, seed_of("mhc_post-graph", tokens, i),
                                                         "cuda").args())


@pytest.mark.gpu
@pytest.mark.parametrize("lead,n,d", [((128,), 4, 7168), ((1024,), 8, 513)])
def test_cuda_agrees_with_cpu(lead, n, d):
    """Same inputs on both backends, each within the bound of the float64 reference."""
    inp = make(lead, n, d, seed_of("mhc_post-cpu-cuda", lead, n, d))
    inp.check(OP(*inp.to("cuda").args()).cpu(), what="cuda")
    inp.check(OP(*inp.args()), what="cpu")


@pytest.mark.gpu
@pytest.mark.parametrize("tokens,n,d", [(255, 4, 2056), (256, 4, 2056), (257, 3, 4104), (300, 8, 7168),
                                        (65537, 4, 8), (65536 + 70, 1, 24)],
                         ids=lambda v: str(v))
def test_cuda_slice_boundaries(tokens, n, d):
    """The CUDA kernel's boundaries (csrc/cuda/mhc_post_kernel.cuh): warp slices of 1 chunk of 8 d a lane below 256
    tokens and of 2 from 256 on, rows whose chunks end inside a slice (2056 = 257 chunks, 4104 = 513), n = 1 .. 8,
    more than 65535 tokens, against the float64 reference; and the mixes read as scalars where their pointers are
    not 16-byte aligned (offset views), which must give the same bits."""
    inp = make((tokens,), n, d, seed_of("mhc_post-slices", tokens, n, d), "cuda")
    out = run_poisoned(OP, inp.args(), nbytes((inp.residual.shape, torch.bfloat16)), "cuda")
    inp.check(out.cpu(), what="cuda")
    post = torch.empty(tokens * n + 1, device="cuda")[1:].view(tokens, n, 1).copy_(inp.post)
    comb = torch.empty(tokens * n * n + 1, device="cuda")[1:].view(tokens, n, n).copy_(inp.comb)
    assert post.data_ptr() % 16 and comb.data_ptr() % 16
    assert_same(OP(inp.x, inp.residual, post, comb), out)


@pytest.mark.gpu
def test_cuda_device_mismatch():
    args = list(make((3,), 4, 8, 0, "cuda").args())
    args[3] = args[3].cpu()
    with pytest.raises(RuntimeError, match=re.escape("dsv4ext.mhc_post: comb_res_mix must be on the same device as "
                                                     "residual (cuda:0), got cpu")):
        OP(*args)
