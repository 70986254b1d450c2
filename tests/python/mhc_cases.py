"""Case grid, input builders and accuracy checks shared by the mHC op tests (shared/spec/ops.md §3, §6.2).

Inputs follow §6.2: bf16 streams with per-token magnitudes spread over six decades when T > 16,
fn = randn / sqrt(K) (mixes with O(1) spread), hc_scale and hc_base ~ 0.5 randn. The float64
reference is dsv4ext.reference with exact=True (no final rounding), and every bf16 output must be within
`ulps` bf16 ulps of it plus a bound on the fp32 error of the sum that produced it (derived below).
"""

import zlib
from dataclasses import dataclass
from math import prod, sqrt
from typing import Optional, Tuple

import torch

from conftest import FP32_EPS, assert_bf16_close, assert_fp32_close, bf16_ulp, poisoned_outputs, spread_magnitudes
from dsv4ext import reference as ref

OPS = torch.ops.dsv4ext
HC_EPS = 1e-6  # hc_pre_eps and hc_sinkhorn_eps (DeepSeek-V4 value)
# fp32 mixes (post_mix, comb_mix) against float64: §6.2 "within fp32 accumulation error". The CPU
# backend's worst relative error on the grid below is 1.3e-6 (comb_mix); 1e-5 is the vX FP32 tolerance.
MIX_RTOL, MIX_ATOL = 1e-5, 1e-6
# Fake tensors need no GPU, only a CUDA build of torch.
FAKE_DEVICES = ["cpu"] + (["cuda"] if torch.backends.cuda.is_built() else [])


@dataclass(frozen=True)
class Case:
    lead: Tuple[int, ...]  # leading dims, flattened into T tokens
    n: int
    d: int
    norm: bool = False  # norm_weight given (fused RMSNorm)
    rms_eps: float = 1e-6
    repeat: int = 20
    mult: float = 2.0  # hc_post_mult_value
    # Distinct from rms_eps so that a swap shows; large pre/sinkhorn eps make their placement visible
    # (1e-6 moves the outputs by less than the tolerances).
    norm_eps: float = 1e-5
    pre_eps: float = HC_EPS  # hc_pre_eps (hc_eps for hc_head)
    sink_eps: float = HC_EPS  # hc_sinkhorn_eps

    @property
    def tokens(self) -> int:
        return prod(self.lead)

    def __str__(self) -> str:
        lead = "x".join(map(str, self.lead)) or "none"
        norm = f"norm{self.norm_eps:g}" if self.norm else "nonorm"
        eps = "" if (self.pre_eps, self.sink_eps) == (HC_EPS, HC_EPS) else f"-pe{self.pre_eps:g}-se{self.sink_eps:g}"
        return f"T{lead}-n{self.n}-D{self.d}-{norm}-eps{self.rms_eps:g}-R{self.repeat}-m{self.mult:g}{eps}"


# A covering set, not a product: every T of §6.2 (0 .. 1024, 65536, 65537, leading dims [] and [2, 3]), n
# in {1, 2, 3, 4, 8}, D in {16, 65, 256, 513, 1280, 4096, 5120, 5137, 7168} (large D only at small T), norm on/off,
# rms_eps in {1e-6, 1e-20}, norm_eps in {1e-5, 1e-20}, repeat in {1, 7, 20}, post mult 2 and 1, and
# two cases with large (or zero) hc_pre_eps / hc_sinkhorn_eps.
CASES = [
    Case((0,), 4, 256, norm=True),
    Case((1,), 4, 7168, norm=True),
    Case((2,), 8, 5137, rms_eps=1e-20, repeat=7, mult=1.0),
    Case((2,), 4, 7168, rms_eps=1e-20, mult=1.0),
    Case((7,), 1, 4096, norm=True, rms_eps=1e-20, repeat=1),
    Case((16,), 3, 513, mult=1.0),
    Case((17,), 4, 256, norm=True, repeat=7, pre_eps=0.25, sink_eps=0.05),
    Case((17,), 1, 513),
    Case((33,), 8, 65, norm=True, rms_eps=1e-20),
    Case((33,), 4, 4096, rms_eps=1e-20),
    Case((128,), 4, 513, rms_eps=1e-20, repeat=1, mult=1.0),
    Case((128,), 8, 256, norm=True, repeat=7, pre_eps=0.0, sink_eps=0.2),
    Case((1024,), 3, 65, norm=True, norm_eps=1e-20),
    Case((1024,), 4, 256, repeat=7),
    Case((65537,), 2, 16, norm=True, repeat=7),  # past 2^16 tokens (GPU grid limits)
    # The CUDA n = 4 pipelined path: 16 CTAs (D % 512 == 0) or 8 (D % 256 == 0), fn streamed from L2
    # (one tile per cluster) or staged in shared memory (several), large T with spread magnitudes;
    # T = 4099 and 2500 give every cluster more tiles than the pipeline's lag (2) and ring (8), and
    # a partial last tile.
    Case((19,), 4, 5120, rms_eps=1e-20),
    Case((4099,), 4, 4096, norm=True),
    Case((1500,), 4, 4096, rms_eps=1e-20),  # the bf16-part engine without the norm (sum of squares)
    Case((2500,), 4, 7168, rms_eps=1e-20),
    Case((300,), 4, 1280, norm=True),
    Case((65536,), 4, 256, norm=True),
    Case((2, 3), 4, 256, norm=True, rms_eps=1e-20),
    Case((), 4, 513, norm=True),
]


def seed_of(*parts) -> int:
    """A distinct, stable seed per (test, case)."""
    return zlib.crc32(":".join(map(str, parts)).encode())


def streams(lead, n: int, d: int) -> torch.Tensor:
    """bf16 [*lead, n, d]; per-token magnitudes over six decades when T > 16 (§5 item 1)."""
    t = prod(lead)
    r = torch.randn(t, n, d).to(torch.bfloat16)
    if t > 16:
        r = spread_magnitudes(r)
    return r.reshape(*lead, n, d)


def tokens_bf16(lead, d: int) -> torch.Tensor:
    """bf16 [*lead, d] (a sub-layer output x), magnitudes spread like `streams`."""
    return streams(lead, 1, d).squeeze(-2)


@dataclass
class PreInputs:
    """Weights and scalars of one sub-layer's pre (mhc_pre, the pre half of the fused op, hc_head)."""
    case: Case
    fn: torch.Tensor
    hc_scale: torch.Tensor
    hc_base: torch.Tensor
    norm_weight: Optional[torch.Tensor]

    @staticmethod
    def make(case: Case, rows: Optional[int] = None, scales: int = 3) -> "PreInputs":
        n, k = case.n, case.n * case.d
        rows = n * (n + 2) if rows is None else rows
        w = torch.randn(case.d).to(torch.bfloat16) if case.norm else None
        return PreInputs(case, torch.randn(rows, k) / sqrt(k), torch.randn(scales) * 0.5,
                         torch.randn(rows) * 0.5, w)

    def to(self, device) -> "PreInputs":
        w = None if self.norm_weight is None else self.norm_weight.to(device)
        return PreInputs(self.case, self.fn.to(device), self.hc_scale.to(device), self.hc_base.to(device), w)

    def args(self) -> tuple:
        """The op arguments after the streams: fn .. norm_eps."""
        c = self.case
        return (self.fn, self.hc_scale, self.hc_base, c.rms_eps, c.pre_eps, c.sink_eps, c.mult, c.repeat,
                self.norm_weight, c.norm_eps)

    def reference(self, residual: torch.Tensor):
        """Exact float64 (post_mix, comb_mix, layer_input) of mhc_pre on `residual`."""
        return ref.mhc_pre(residual.cpu(), *[a.cpu() if torch.is_tensor(a) else a for a in self.args()],
                           exact=True)

    def pre_weights(self, residual: torch.Tensor) -> torch.Tensor:
        """float64 pre[..., i] = sigmoid(mix_i * alpha_pre + base_i) + pre_eps (§3.3), for the bounds."""
        n = self.case.n
        mix = ref._rms_mix(residual.cpu().double(), self.fn.cpu(), self.case.rms_eps)
        z = mix[..., :n] * self.hc_scale[0].item() + self.hc_base.cpu().double()[:n]
        return torch.sigmoid(z) + self.case.pre_eps

    def check(self, outs, residual: torch.Tensor, what: str = "mhc_pre"):
        """(post_mix, comb_mix, layer_input) against the float64 reference on `residual`."""
        post, comb, layer_input = outs
        lead, n, d = residual.shape[:-2], self.case.n, self.case.d
        assert post.shape == (*lead, n, 1) and post.dtype == torch.float32
        assert comb.shape == (*lead, n, n) and comb.dtype == torch.float32
        assert layer_input.shape == (*lead, d) and layer_input.dtype == torch.bfloat16
        want_post, want_comb, want_li = self.reference(residual)
        assert_fp32_close(post, want_post, MIX_RTOL, MIX_ATOL, what=f"{what} post_mix")
        assert_fp32_close(comb, want_comb, MIX_RTOL, MIX_ATOL, what=f"{what} comb_mix")
        check_collapse(layer_input, want_li, residual, self.pre_weights(residual), self.norm_weight,
                       self.case.norm_eps, what=f"{what} layer_input")


def collapse_error(residual: torch.Tensor, pre: torch.Tensor) -> torch.Tensor:
    """Bound on |y' - y| for the fp32 y' = sum_i pre'_i x_i against the float64 y (before rounding).

    n products and n - 1 additions in sequence: gamma_n * sum_i |pre_i x_i| <= (n + 1) u sum|.|
    (u = 2^-24, one u of margin). The fp32 weights pre'_i come out of the same projection, RMS
    fold and sigmoid as post_mix, whose relative error is held to MIX_RTOL, so they add
    MIX_RTOL * sum|.|."""
    n = residual.shape[-2]
    terms = (pre.unsqueeze(-1) * residual.cpu().double()).abs().sum(-2)
    return ((n + 1) * FP32_EPS + MIX_RTOL) * terms


def check_collapse(out, exact, residual, pre, norm_weight, norm_eps, what):
    """layer_input / hc_head output: 1 ulp + collapse_error; with norm_weight (§3.5) 2 ulps plus the
    error of the RMS factor and, where y' and y may round to different bf16 values, |s w| times
    their largest possible distance |y' - y| + ulp (many ulps of y where the sum cancels)."""
    delta = collapse_error(residual, pre)
    if norm_weight is None:
        assert_bf16_close(out, exact, delta, ulps=1, what=what)
        return
    y = (pre.unsqueeze(-1) * residual.cpu().double()).sum(-2)
    d = y.shape[-1]
    ss = y.square().sum(-1, keepdim=True)
    s = torch.rsqrt(ss / d + norm_eps)
    # ss' = sum_d y'_d^2 in fp32: |ss' - ss| <= sum 2|y| delta + delta^2 + (d - 1) u ss (any order);
    # s' = rsqrt: half that relatively, plus a few roundings; two fp32 products at the end.
    rel_s = 0.5 * ((2 * y.abs() * delta + delta.square()).sum(-1, keepdim=True) / (ss + d * norm_eps)
                   + d * FP32_EPS) + 4 * FP32_EPS
    wide = delta + FP32_EPS * y.abs()  # the reference's f64 -> bf16 cast passes through fp32
    flip = (y - wide).to(torch.bfloat16) != (y + wide).to(torch.bfloat16)
    sw = (s * norm_weight.cpu().double()).abs()
    bound = exact.abs() * (rel_s + 3 * FP32_EPS) + flip * sw * (delta + bf16_ulp(y.abs() + delta))
    assert_bf16_close(out, exact, bound, ulps=2, what=what)


@dataclass
class PostInputs:
    """x, residual, post_layer_mix, comb_res_mix of mhc_post (random, comb non-symmetric)."""
    x: torch.Tensor
    residual: torch.Tensor
    post: torch.Tensor
    comb: torch.Tensor

    @staticmethod
    def make(lead, n: int, d: int, post_n1: bool = True) -> "PostInputs":
        post = torch.randn(*lead, n, 1) if post_n1 else torch.randn(*lead, n)
        return PostInputs(tokens_bf16(lead, d), streams(lead, n, d), post, torch.randn(*lead, n, n))

    def to(self, device) -> "PostInputs":
        return PostInputs(self.x.to(device), self.residual.to(device), self.post.to(device), self.comb.to(device))

    def args(self) -> tuple:
        return (self.x, self.residual, self.post, self.comb)

    def check(self, out, what: str = "mhc_post"):
        """out against the float64 reference: 1 ulp + (n + 2) u * sum of |terms| (n + 1 products
        post_j x, C[i, j] R_i summed in fp32: gamma_{n+1}, one u of margin)."""
        assert out.shape == self.residual.shape and out.dtype == torch.bfloat16
        x, r, post, comb = (t.cpu() for t in self.args())
        n = r.shape[-2]
        exact = ref.mhc_post(x, r, post, comb, exact=True)
        terms = (post.double().reshape(*r.shape[:-1], 1) * x.double().unsqueeze(-2)).abs() \
            + comb.double().abs().transpose(-1, -2) @ r.double().abs()
        assert_bf16_close(out, exact, (n + 2) * FP32_EPS * terms, ulps=1, what=what)


def nbytes(*shapes_dtypes) -> int:
    return sum(prod(s) * torch.empty((), dtype=dt).element_size() for s, dt in shapes_dtypes)


def run_poisoned(op, args, out_bytes: int, device):
    with poisoned_outputs(out_bytes, device):
        return op(*args)


def assert_same(a, b):
    """Bitwise equality of (tuples of) tensors, NaN payloads included."""
    a = a if isinstance(a, (tuple, list)) else (a,)
    b = b if isinstance(b, (tuple, list)) else (b,)
    assert len(a) == len(b)
    for i, (u, v) in enumerate(zip(a, b)):
        assert u.shape == v.shape and u.dtype == v.dtype, f"output {i}: {u.shape} {u.dtype} vs {v.shape} {v.dtype}"
        assert torch.equal(u.cpu().view(torch.uint8), v.cpu().view(torch.uint8)), f"output {i} differs bitwise"


def assert_batch_invariant(op, batch_args, per_token_args, tokens: int):
    """op on the whole batch, token t's slice of every output == op on token t alone, bitwise."""
    whole = op(*batch_args)
    whole = whole if isinstance(whole, tuple) else (whole,)
    for t in range(tokens):
        alone = op(*per_token_args(t))
        alone = alone if isinstance(alone, tuple) else (alone,)
        assert_same(tuple(w[t:t + 1] for w in whole), alone)


def assert_spans_match(calls, spans):
    """For each named call (a slice of the tokens -> outputs): the whole batch's outputs cut to each
    span (a, b) == the call on that span alone, bitwise; a failure names the call and the span."""
    for name, call in calls.items():
        whole = call(slice(None))
        whole = whole if isinstance(whole, tuple) else (whole,)
        for a, b in spans:
            try:
                assert_same(tuple(w[a:b] for w in whole), call(slice(a, b)))
            except AssertionError as e:
                raise AssertionError(f"{name}, tokens {a}..{b - 1}: {e}") from None


def assert_graph_replay_matches_eager(op, make_args):
    """CUDA graph: capture op(*static) once, refill the static tensor inputs in place with fresh data,
    replay, and compare bitwise with eager on the fresh data (§3.11: no allocation besides the outputs,
    current stream, no host sync)."""
    static = make_args(0)
    fresh = make_args(1)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        op(*static)  # warm-up outside capture
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        outs = op(*static)
    for s, f in zip(static, fresh):
        if torch.is_tensor(s):
            s.copy_(f)
    graph.replay()
    torch.cuda.synchronize()
    assert_same(outs, op(*fresh))
