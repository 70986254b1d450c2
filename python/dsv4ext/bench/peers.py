"""Other implementations of the same ops, timed side by side when they are importable: vLLM's
mHC (TileLang) and top-k ops, AITER's mHC and top-k ops (ROCm), DeepGEMM's tf32_hc_prenorm_gemm
(only the projection and sum of squares of mhc_pre, in TF32), FlashInfer's mHC and top-k kernels
(flashinfer_peer.py; one peer name per kernel or way of feeding it), CUB's batched top-k
(cub_peer.py, through benchmarks/cub_batched_topk.cu), and torch.compile of the pure-torch
reference (what an engine runs without a fused kernel).

Each adapter takes a Case's `args` (the positional arguments of our op) and returns a call with the
same inputs. These are GPU kernels: on the CPU they are reported, never run.
"""

import importlib
import importlib.util
import inspect
import sys
from functools import partial
from typing import Callable, Dict, List, Optional, Tuple

import torch

Adapter = Callable[[tuple], Callable[[], object]]


class PeerSkipped(Exception):
    """Raised by a peer's loader to skip it with the reason as the note."""


def _rows_strides(logits: torch.Tensor) -> tuple:
    """The (numRows, stride0, stride1) arguments of the vLLM-style top-k schemas."""
    return (logits.shape[0], logits.stride(0), logits.stride(1))


def _vllm() -> Dict[str, Adapter]:
    from vllm import _custom_ops  # noqa: F401  (registers torch.ops._C)
    from vllm.model_executor.kernels.mhc import tilelang as m

    c = torch.ops._C
    return {
        "mhc_pre": lambda a: partial(m.mhc_pre_tilelang, *a[:9], norm_weight=a[9], norm_eps=a[10]),
        "mhc_post": lambda a: partial(m.mhc_post_tilelang, *a),
        "mhc_fused_post_pre": lambda a: partial(m.mhc_fused_post_pre_tilelang, *a[:12], norm_weight=a[12],
                                                norm_eps=a[13]),
        "hc_head": lambda a: partial(m.hc_head_fused_kernel_tilelang, *a),
        # DeepSeek-V4.1's seam (docs/ops.md), where the installed vLLM has it (our argument order is vLLM's)
        **({"mhc_fused_post_pre_delayed": lambda a: partial(m.mhc_fused_post_pre_delayed_tilelang, *a)}
           if hasattr(m, "mhc_fused_post_pre_delayed_tilelang") else {}),
        # (logits, starts | next_n, ends | seq_lens, indices, numRows, stride0, stride1, topK)
        "top_k_per_row_prefill": lambda a: partial(c.top_k_per_row_prefill, *a[:4], *_rows_strides(a[0]), a[4]),
        "top_k_per_row_decode": lambda a: partial(c.top_k_per_row_decode, *a[:4], *_rows_strides(a[0]), a[4]),
    }


def _aiter() -> Dict[str, Adapter]:
    from aiter.ops import mhc, topk

    def topk_adapter(fn: Callable, prefill: bool) -> Adapter:
        # prefill: (logits, rowStarts, rowEnds, indices, values, numRows, stride0, stride1[, k])
        # decode:  (logits, next_n, seqLens, indices, numRows, stride0, stride1[, k])
        takes_k = "k" in inspect.signature(fn).parameters
        values = (None,) if prefill else ()
        return lambda a: partial(fn, *a[:4], *values, *_rows_strides(a[0]), **({"k": a[4]} if takes_k else {}))

    def post(a):
        return partial(mhc.mhc_post, torch.empty_like(a[1]), *a)

    return {
        "mhc_pre": lambda a: partial(mhc.mhc_pre, *a),
        "mhc_post": post,
        "mhc_fused_post_pre": lambda a: partial(mhc.mhc_fused_post_pre, *a),
        "top_k_per_row_prefill": topk_adapter(topk.top_k_per_row_prefill, prefill=True),
        "top_k_per_row_decode": topk_adapter(topk.top_k_per_row_decode, prefill=False),
    }


def _module_adapters(module: str, *args) -> Callable[[], Dict[str, Adapter]]:
    """The loader of a peer whose adapters live in a module of this package (flashinfer_peer,
    cub_peer): imports it only when the peer is loaded and returns its adapters(*args)."""
    return lambda: importlib.import_module(f"{__package__}.{module}").adapters(*args)


def _deepgemm() -> Dict[str, Adapter]:
    import deep_gemm

    def prenorm_gemm(a):
        residual, fn = a[0], a[1]
        tokens = residual.shape[0]
        out = torch.empty(1, tokens, fn.shape[0], dtype=torch.float32, device=residual.device)
        sqr_sum = torch.empty(1, tokens, dtype=torch.float32, device=residual.device)
        return partial(deep_gemm.tf32_hc_prenorm_gemm, residual.view(tokens, -1), fn, out, sqr_sum, 1)

    return {"mhc_pre": prenorm_gemm}


def _torch_compile() -> Dict[str, Adapter]:
    """The op's pure-torch fp32 baseline (`dsv4ext.reference`, the semantics of vLLM's `mhc_*_torch`
    references) under torch.compile(dynamic=True): what an engine runs where it has no fused kernel.
    Compiled once per op, on the first case that asks (cases.OpSpec.baseline)."""
    from .cases import OPS

    compiled: Dict[str, Callable] = {}

    def adapter(op: str) -> Adapter:
        def make(a: tuple) -> Callable[[], object]:
            if op not in compiled:
                compiled[op] = OPS[op].baseline(compiled=True)
            return partial(compiled[op], *a)
        return make

    return {op: adapter(op) for op in ("mhc_pre", "mhc_pre_delayed", "mhc_post", "mhc_fused_post_pre", "hc_head")}


# name: (module that must be installed, adapter table loader, caveat reported when it runs)
PEERS: Dict[str, Tuple[str, Callable[[], Dict[str, Adapter]], str]] = {
    "vllm": ("vllm", _vllm, ""),
    "aiter": ("aiter", _aiter, ""),
    "torch_compile": ("torch", _torch_compile, "the op's fp32 pure-torch reference (dsv4ext.reference) under "
                                               "torch.compile(dynamic=True), replayed from CUDA graphs like ours"),
    "deepgemm": ("deep_gemm", _deepgemm, "tf32_hc_prenorm_gemm is only the projection and sum of squares of "
                                         "mhc_pre, in TF32"),
    **{name: ("flashinfer", _module_adapters("flashinfer_peer", name), caveat) for name, caveat in (
        ("flashinfer", "mhc_post; mhc_pre = fp32 torch.matmul (TF32 off) + sum of squares + mhc_pre_big_fuse "
                       "(+ torch RMSNorm when norm_weight is given); top-k = radix_topk (whole rows only)"),
        ("flashinfer_tf32", "mhc_pre as `flashinfer` with the projection in TF32"),
        ("flashinfer_epilogue", "mhc_pre_big_fuse alone: projection and sum of squares computed before the timed "
                                "call"),
        ("flashinfer_ragged", "top-k = radix_topk_ragged_transform (row_starts + lengths, offsets 0)"),
        ("flashinfer_clusters", "top-k = topk_clusters_exact (whole rows only; FlashInfer dispatches it on SM100 "
                                "only)"),
        ("flashinfer_cub", "top-k = cub_topk_ragged_transform (CUB DeviceBatchedTopK)"),
    )},
    # benchmarks/cub_batched_topk.cu, a library of ours around CUB (no Python module: dsv4ext is the check)
    "cub": ("dsv4ext", _module_adapters("cub_peer", True), "top-k = cub::DeviceBatchedTopK, GPU-to-GPU "
                                                           "deterministic, ties to the lower index (whole rows only)"),
    "cub_fast": ("dsv4ext", _module_adapters("cub_peer", False), "top-k = cub::DeviceBatchedTopK without a "
                                                                 "determinism guarantee (whole rows only)"),
}


def _installed(module: str) -> bool:
    """Whether `module` can be imported; a package already in sys.modules counts even when it has no
    __spec__ (the FlashInfer peer registers a bare `flashinfer` package, which find_spec rejects)."""
    if module in sys.modules:
        return True
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def load(device: str, ops: List[str], skip: Optional[Dict[str, str]] = None
         ) -> Tuple[Dict[str, Dict[str, Adapter]], List[str]]:
    """The peers usable on `device` for `ops` ({peer: {op: adapter}}) and a note for each one skipped
    (`skip`: peers the caller leaves out, with the reason for the note)."""
    usable, notes = {}, []
    for name, (module, adapters, caveat) in PEERS.items():
        if skip and name in skip:
            notes.append(f"peer {name}: skipped, {skip[name]}")
        elif not _installed(module):
            notes.append(f"peer {name}: skipped, `{module}` is not installed")
        elif device == "cpu":
            notes.append(f"peer {name}: skipped, its kernels need a GPU")
        else:
            try:
                table = adapters()
            except PeerSkipped as e:
                notes.append(f"peer {name}: skipped, {e}")
                continue
            except Exception as e:  # a peer that fails to import is reported, not fatal
                notes.append(f"peer {name}: skipped, import failed ({type(e).__name__}: {e})")
                continue
            usable[name] = {op: a for op, a in table.items() if op in ops}
            if caveat:
                notes.append(f"peer {name}: {caveat}")
    return usable, notes
