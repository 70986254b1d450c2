"""Shared fixtures and tolerance helpers for the op tests.

Every op test runs on each available device: the CPU always, CUDA when a GPU is present and this
build has the CUDA backend. Tolerances are stated in bf16 ulps of the exact (float64) value plus the
fp32 accumulation error of the sum that produced it, as shared/spec/ops.md §6.2 asks.
"""

import contextlib

import pytest
import torch

import dsv4ext


def _devices():
    devs = ["cpu"]
    if "cuda" in dsv4ext.BACKENDS and torch.cuda.is_available():
        devs.append("cuda")
    return devs


DEVICES = _devices()


@pytest.fixture(params=DEVICES)
def device(request):
    return request.param


def pytest_collection_modifyitems(config, items):
    """Tests marked `gpu` skip when no GPU with the CUDA backend is present."""
    if "cuda" in DEVICES:
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU and the CUDA backend")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a CUDA GPU and the CUDA backend")
    config.addinivalue_line("markers", "slow: large sizes")


FP32_EPS = 2.0 ** -24  # unit roundoff of fp32


def bf16_ulp(x: torch.Tensor) -> torch.Tensor:
    """Spacing of bf16 numbers at |x| (float64); the subnormal spacing below the normal range."""
    a = x.abs().to(torch.float64).clamp_min(2.0 ** -126)
    return torch.exp2(torch.floor(torch.log2(a)) - 7)


def assert_bf16_close(out: torch.Tensor, exact: torch.Tensor, accum_bound: torch.Tensor, ulps: float = 1.0,
                      what: str = "output"):
    """|out - exact| <= ulps * ulp_bf16(exact) + accum_bound, elementwise; no NaN where exact is finite."""
    out64 = out.to(torch.float64).cpu()
    exact = exact.to(torch.float64).cpu()
    tol = ulps * bf16_ulp(exact) + accum_bound.to(torch.float64).cpu()
    err = (out64 - exact).abs()
    bad = ~(err <= tol)
    if bad.any():
        i = bad.nonzero()[0].tolist()
        raise AssertionError(f"{what}: {int(bad.sum())} elements off, first at {i}: got {out64[tuple(i)].item()}, "
                             f"exact {exact[tuple(i)].item()}, tol {tol[tuple(i)].item()}")


def assert_fp32_close(out: torch.Tensor, exact: torch.Tensor, rtol: float = 1e-5, atol: float = 1e-6,
                      what: str = "output"):
    """fp32 outputs (mixes) against float64: relative 1e-5 by default, NaN never passes."""
    out64 = out.to(torch.float64).cpu()
    exact = exact.to(torch.float64).cpu()
    err = (out64 - exact).abs()
    bad = ~(err <= atol + rtol * exact.abs())
    if bad.any():
        i = bad.nonzero()[0].tolist()
        raise AssertionError(f"{what}: {int(bad.sum())} elements off, first at {i}: got {out64[tuple(i)].item()}, "
                             f"exact {exact[tuple(i)].item()}, max err {err.max().item()}")


def poison_allocator(nbytes: int, device: str):
    """Fill then free a block of at least `nbytes`, so freshly allocated outputs start as NaN bytes
    (0xFF) rather than zeros: unwritten elements then show up as NaN."""
    block = torch.full((max(1, nbytes),), 0xFF, dtype=torch.uint8, device=device)
    del block


def spread_magnitudes(t: torch.Tensor, decades: float = 6.0) -> torch.Tensor:
    """Scale token t (dim 0) by 10^(u_t * decades - decades/2) with u_t uniform: per-token magnitudes
    spread over `decades` decades (the AITER >16-token store race only shows with such inputs)."""
    tokens = t.shape[0]
    if tokens == 0:
        return t
    u = torch.rand(tokens, dtype=torch.float64)
    scale = torch.pow(10.0, u * decades - decades / 2).to(t.dtype)
    return t * scale.view(tokens, *([1] * (t.dim() - 1))).to(t.device)


@contextlib.contextmanager
def poisoned_outputs(nbytes: int, device: str):
    """For ops that allocate their outputs: poison_allocator(nbytes), and for the duration torch's
    deterministic fill of uninitialised memory (NaN for floating tensors), which also reaches the
    ops' torch::stable::new_empty. The CPU allocator does not reliably hand back the poisoned block,
    so the fill is what catches unwritten elements there."""
    poison_allocator(nbytes, device)
    det = torch.are_deterministic_algorithms_enabled()
    warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
    fill = torch.utils.deterministic.fill_uninitialized_memory
    torch.use_deterministic_algorithms(True)
    torch.utils.deterministic.fill_uninitialized_memory = True
    try:
        yield
    finally:
        torch.use_deterministic_algorithms(det, warn_only=warn_only)
        torch.utils.deterministic.fill_uninitialized_memory = fill
