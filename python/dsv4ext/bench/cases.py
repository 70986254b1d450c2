"""What `bench` times: every op at DeepSeek-V4 shapes, the bytes of its bandwidth floor, and the
pure-torch baseline it is compared with.

Shapes: n = 4 streams; D = 4096 (Flash) or 7168 (Pro); T tokens (the rows of the top-k ops and the
pack). Floors (shared/spec/ops.md §7, topk.md §10): the bytes an op must move, at the device's copy
bandwidth. Baselines: ``dsv4ext.reference`` in float32 for the mHC ops and Sinkhorn;
``torch.topk(sorted=False)`` on the same rows for top-k (the exact reference is a per-row loop, not
a speed baseline); a vectorised mask-and-cumsum pack for ``ragged_pack``.
"""

from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Dict, Optional, Tuple

import torch

from .. import reference

N = 4  # hc_mult of both models
SCALARS = (1e-6, 1e-6, 1e-6, 2.0, 20)  # rms_eps, hc_pre_eps, hc_sinkhorn_eps, hc_post_mult_value, sinkhorn_repeat
DECODE_MAX_TOKENS = 64  # decode batches; larger token counts are prefill
GRAPH_MAX_TOKENS = 64  # on CUDA, calls up to this size are replayed from CUDA graphs
# Calls per CUDA-graph replay, by size: (up to this many tokens, calls), then GRAPH_INNER_REST. Enough to
# amortise the replay's launch on short calls, few enough that the graph's outputs (one set per captured
# call) stay small on long ones.
GRAPH_INNER_STEPS = ((GRAPH_MAX_TOKENS, 20), (16384, 5))
GRAPH_INNER_REST = 2
GRAPH_INNER_TEXT = ", ".join(f"{calls} calls per replay up to {limit} tokens" for limit, calls in GRAPH_INNER_STEPS) \
    + f", else {GRAPH_INNER_REST}"


def graph_inner(tokens: int) -> int:
    """Calls per CUDA-graph replay at a size (GRAPH_INNER_STEPS)."""
    return next((calls for limit, calls in GRAPH_INNER_STEPS if tokens <= limit), GRAPH_INNER_REST)


@dataclass(frozen=True)
class Model:
    name: str
    hidden: int  # D
    index_topk: int  # indices the CSA indexer keeps per query (topk.md §1)


MODELS = {"flash": Model("flash", 4096, 512), "pro": Model("pro", 7168, 1024)}


@dataclass(frozen=True)
class Sweep:
    """Default token counts and top-k row widths (compressed KV entries) of one device."""

    tokens: Tuple[int, ...]
    prefill_width: int
    decode_width: int


SWEEPS = {
    "cpu": Sweep(tokens=(1, 16, 256), prefill_width=8192, decode_width=8192),
    "cuda": Sweep(tokens=(1, 8, 64, 512, 4096, 16384, 65536), prefill_width=32768, decode_width=65536),
}


@dataclass
class Case:
    """One measured call: `args` go to torch.ops.dsv4ext.<op> (and to peers), `ref_args` to the
    baseline; `nbytes` is the floor's traffic."""

    shape: str
    nbytes: int
    args: tuple
    ref_args: tuple


@dataclass(frozen=True)
class OpSpec:
    name: str
    build: Callable[[int, Model, Sweep, str], Case]  # (tokens, model, sweep, device) -> Case
    reference: Callable  # the baseline, called as reference(*case.ref_args, **reference_kwargs)
    reference_kwargs: Dict = field(default_factory=dict)
    per_model: bool = True  # False: the shapes do not depend on the model (run once)
    max_tokens: Optional[int] = None

    def baseline(self, compiled: bool = False) -> Callable:
        """The pure-torch baseline, eager or under torch.compile(dynamic=True). The function itself is
        compiled (torch.compile caches per code object, so wrappers made here must not be)."""
        fn = torch.compile(self.reference, dynamic=True) if compiled else self.reference
        return partial(fn, **self.reference_kwargs)


# ---------------------------------------------------------------------------------------------
# mHC


MHC_BYTES_PER_TOKEN = {  # in units of D bytes, n = 4 (ops.md §7): bf16 streams in and out, weights excluded
    "mhc_pre": 2 * N + 2,
    "mhc_pre_delayed": 2 * N + 2,  # the carried pre_mix and new_pre (8 n bytes) are excluded
    "mhc_post": 2 + 4 * N,
    "mhc_fused_post_pre": 2 + 4 * N + 2,
    "mhc_fused_post_pre_delayed": 2 + 4 * N + 2,  # as the V4 seam; pre_mix and new_pre excluded
    "hc_head": 2 * N + 2,
    "mhc_post_hc_head": 2 + 2 * N + 2 + 2 * N,  # x, residual, out and the MTP stash (spec §4.6)
}


def mhc_floor_bytes(op: str, tokens: int, hidden: int) -> int:
    return tokens * MHC_BYTES_PER_TOKEN[op] * hidden


def mhc_args(op: str, tokens: int, hidden: int, device: str, norm: bool = True) -> tuple:
    """Positional arguments of torch.ops.dsv4ext.<op> at n = 4: random bf16 streams, fn scaled to
    unit-variance mixes, the fused RMSNorm on (norm=False: off) for mhc_pre, mhc_pre_delayed and
    mhc_fused_post_pre_delayed (carried entry: a pre_mix given) and mhc_fused_post_pre, the final norm
    and the MTP stash on for mhc_post_hc_head."""
    m3 = N * (N + 2)
    residual = torch.randn(tokens, N, hidden, device=device).bfloat16()
    fn = torch.randn(m3, N * hidden, device=device) / (N * hidden) ** 0.5
    scale, base = torch.randn(3, device=device) * 0.5, torch.randn(m3, device=device) * 0.5
    if op == "hc_head":
        return (residual, fn[:N], scale[:1], base[:N], 1e-6, 1e-6)
    norm_weight = torch.randn(hidden, device=device).bfloat16() if norm else None
    pre = (fn, scale, base, *SCALARS, norm_weight, 1e-6)
    if op == "mhc_pre":
        return (residual, *pre)
    if op == "mhc_pre_delayed":
        pre_mix = torch.rand(tokens, N, device=device) + 0.5
        return (residual, fn, scale, base, *SCALARS, pre_mix, None, norm_weight, 1e-6)
    x = torch.randn(tokens, hidden, device=device).bfloat16()
    post, comb = torch.rand(tokens, N, 1, device=device), torch.rand(tokens, N, N, device=device)
    if op == "mhc_post_hc_head":  # the model's final seam: final norm and MTP stash on
        return (x, residual, post, comb, fn[:N], scale[:1], base[:N], 1e-6, 1e-6, norm_weight, 1e-6,
                torch.empty_like(residual))
    if op == "mhc_fused_post_pre_delayed":  # the seam of DeepSeek-V4.1: carried pre_mix, norm on
        pre_mix = torch.rand(tokens, N, device=device) + 0.5
        return (x, residual, post, comb, fn, scale, base, *SCALARS, pre_mix, norm_weight, 1e-6)
    return (x, residual, post, comb) if op == "mhc_post" else (x, residual, post, comb, *pre)


def mhc_ref_args(op: str, args: tuple) -> tuple:
    """The baseline's arguments for mhc_args(op, ...): all but mhc_post_hc_head's streams_out (the
    reference returns the streams)."""
    return args[:-1] if op == "mhc_post_hc_head" else args


def _mhc_case(op: str) -> Callable[[int, Model, Sweep, str], Case]:
    def build(tokens: int, model: Model, sweep: Sweep, device: str) -> Case:
        args = mhc_args(op, tokens, model.hidden, device)
        return Case(f"{tokens}x{N}x{model.hidden}", mhc_floor_bytes(op, tokens, model.hidden), args,
                    mhc_ref_args(op, args))

    return build


def _sinkhorn_case(tokens: int, model: Model, sweep: Sweep, device: str) -> Case:
    logits = torch.randn(tokens, N, N, device=device) * 3
    args = (logits, SCALARS[4], SCALARS[2])
    return Case(f"{tokens}x{N}x{N}", tokens * N * N * 4 * 2, args, args)  # fp32 in and out


# ---------------------------------------------------------------------------------------------
# top-k and ragged pack


def topk_floor_bytes(rows: int, width: int) -> int:
    """One read of the logits (topk.md §10)."""
    return rows * width * 4


def pack_floor_bytes(rows: int, nnz: int) -> int:
    """lengths in, entries in and out, indptr out (topk.md §6.3)."""
    return 4 * rows + 8 * nnz + 4 * (rows + 1)


def torch_topk(logits: torch.Tensor, k: int):
    return torch.topk(logits, k, dim=-1, sorted=False)


def torch_ragged_pack(dense: torch.Tensor, lengths: torch.Tensor):
    """The pack in plain torch: (packed entries, int64 indptr); sizes its output on the host."""
    lengths = lengths.clamp(0, dense.shape[1])
    keep = torch.arange(dense.shape[1], device=dense.device) < lengths[:, None]
    return dense[keep], torch.nn.functional.pad(torch.cumsum(lengths, 0), (1, 0))


# Seed of the top-k rows: a decode row's time depends on its values (benchmarks/bench_topk.py), so
# runs time the same rows; bench_topk's first draw of a shape uses it too.
TOPK_SEED = 1000


def _topk_case(kind: str) -> Callable[[int, Model, Sweep, str], Case]:
    def build(rows: int, model: Model, sweep: Sweep, device: str) -> Case:
        width = sweep.prefill_width if kind == "prefill" else sweep.decode_width
        k = model.index_topk
        gen = torch.Generator(device=device).manual_seed(TOPK_SEED)
        logits = torch.randn(rows, width, device=device, generator=gen)
        indices = torch.empty(rows, k, dtype=torch.int32, device=device)
        if kind == "prefill":
            starts = torch.zeros(rows, dtype=torch.int32, device=device)
            ends = torch.full((rows,), width, dtype=torch.int32, device=device)
            args = (logits, starts, ends, indices, k, False)
        else:  # next_n = 1: row b's window is [0, seq_lens[b])
            args = (logits, 1, torch.full((rows,), width, dtype=torch.int32, device=device), indices, k, False)
        return Case(f"{rows}x{width} k={k}", topk_floor_bytes(rows, width), args, (logits, k))

    return build


def _pack_case(rows: int, model: Model, sweep: Sweep, device: str) -> Case:
    width = model.index_topk  # packing the indexer's top-k rows
    dense = torch.randint(0, 1 << 20, (rows, width), dtype=torch.int32, device=device)
    lengths = torch.randint(0, width + 1, (rows,), dtype=torch.int32, device=device)
    out = torch.empty(rows * width, dtype=torch.int32, device=device)
    indptr = torch.empty(rows + 1, dtype=torch.int32, device=device)
    nnz = int(lengths.sum())
    return Case(f"{rows}x{width}", pack_floor_bytes(rows, nnz), (dense, lengths, out, indptr, -1, -1),
                (dense, lengths))


FP32 = {"compute_dtype": torch.float32}  # the mHC references compute in float32 here, not float64
OPS: Dict[str, OpSpec] = {
    spec.name: spec
    for spec in (
        OpSpec("mhc_pre", _mhc_case("mhc_pre"), reference.mhc_pre, FP32),
        OpSpec("mhc_pre_delayed", _mhc_case("mhc_pre_delayed"), reference.mhc_pre_delayed, FP32),
        OpSpec("mhc_post", _mhc_case("mhc_post"), reference.mhc_post, FP32),
        OpSpec("mhc_fused_post_pre", _mhc_case("mhc_fused_post_pre"), reference.mhc_fused_post_pre, FP32),
        OpSpec("mhc_fused_post_pre_delayed", _mhc_case("mhc_fused_post_pre_delayed"),
               reference.mhc_fused_post_pre_delayed, FP32),
        OpSpec("hc_head", _mhc_case("hc_head"), reference.hc_head, FP32),
        OpSpec("mhc_post_hc_head", _mhc_case("mhc_post_hc_head"), reference.mhc_post_hc_head, FP32),
        OpSpec("sinkhorn", _sinkhorn_case, reference.sinkhorn, FP32, per_model=False),
        OpSpec("top_k_per_row_prefill", _topk_case("prefill"), torch_topk),
        OpSpec("top_k_per_row_decode", _topk_case("decode"), torch_topk, max_tokens=DECODE_MAX_TOKENS),
        OpSpec("ragged_pack", _pack_case, torch_ragged_pack),
    )
}
