"""FlashInfer's mHC and top-k kernels (`flashinfer.mhc`, `flashinfer.topk`, flashinfer-python 0.7.2)
as bench peers, imported without FlashInfer's package __init__ (which imports hundreds of modules
and needs packages a serving machine may lack), and JIT-built on first use with the machine's nvcc.

The top-k module is built without `cub_topk.cu` unless DSV4EXT_PEERS_CUB=1: that one translation
unit of CUB batched top-k templates did not finish compiling in 9 minutes on the H100 machine (19 here
on 2 shared cores), the rest builds in seconds. Without it `cub_topk` raises, and the
`flashinfer_cub` peer is skipped with a note.

    python -m dsv4ext.bench.flashinfer_peer    # import and JIT-build (the GPU run's `peers` stage)
"""

import contextlib
import importlib
import importlib.util
import os
import sys
import time
import types
from typing import Dict, Optional

import torch

from .peer_check import topk_windows, whole_rows
from .peers import Adapter, PeerSkipped

CUB_ENV = "DSV4EXT_PEERS_CUB"

# The cub_topk entry points the top-k binding exports, defined to raise: they stand in for
# cub_topk.cu when it is left out of the build (signatures from flashinfer_topk_binding.cu).
_CUB_STUB = r"""
#include "tvm_ffi_utils.h"
using tvm::ffi::Optional;
#define DSV4EXT_NO_CUB TVM_FFI_THROW(RuntimeError) << "cub_topk was not built (set DSV4EXT_PEERS_CUB=1)"
void cub_topk_page_table_transform(TensorView, TensorView, TensorView, TensorView, Optional<TensorView>,
    Optional<TensorView>, int64_t, int64_t, int64_t, Optional<TensorView>, Optional<TensorView>,
    Optional<TensorView>) { DSV4EXT_NO_CUB; }
int64_t cub_topk_page_table_transform_workspace_size(TensorView, TensorView, int64_t, int64_t, bool, bool) {
  DSV4EXT_NO_CUB; }
void cub_topk_ragged_transform(TensorView, TensorView, TensorView, TensorView, Optional<TensorView>, int64_t,
    int64_t, Optional<TensorView>) { DSV4EXT_NO_CUB; }
int64_t cub_topk_ragged_transform_workspace_size(TensorView, TensorView, int64_t, int64_t, bool) {
  DSV4EXT_NO_CUB; }
void cub_topk(TensorView, TensorView, TensorView, Optional<TensorView>, int64_t, int64_t) { DSV4EXT_NO_CUB; }
int64_t cub_topk_workspace_size(TensorView, int64_t, int64_t) { DSV4EXT_NO_CUB; }
"""


def cub_enabled() -> bool:
    return os.environ.get(CUB_ENV) == "1"


def _register_empty_package():
    """Puts an empty `flashinfer` package, whose __path__ is the installed one, in sys.modules, so
    its submodules import without running its __init__."""
    if "flashinfer" in sys.modules:
        return
    spec = importlib.util.find_spec("flashinfer")  # locates the package without importing it
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("flashinfer is not installed")
    pkg = types.ModuleType("flashinfer")
    pkg.__path__ = list(spec.submodule_search_locations)
    sys.modules["flashinfer"] = pkg


def _topk_spec_without_cub():
    """FlashInfer's top-k JIT spec with cub_topk.cu replaced by _CUB_STUB (its own module name, so
    the cache never mixes the two builds)."""
    from flashinfer.jit import env as jit_env
    from flashinfer.jit.core import gen_jit_spec

    stub = jit_env.FLASHINFER_GEN_SRC_DIR / "dsv4ext_cub_topk_stub.cu"
    stub.parent.mkdir(parents=True, exist_ok=True)
    if not stub.exists() or stub.read_text() != _CUB_STUB:
        stub.write_text(_CUB_STUB)
    csrc = jit_env.FLASHINFER_CSRC_DIR
    return gen_jit_spec("topk_without_cub", [csrc / "topk.cu", stub, csrc / "flashinfer_topk_binding.cu",
                                             csrc / "flashinfer_fast_topk_clusters_binding.cu"],
                        extra_cuda_cflags=["-lineinfo"])


def modules():
    """(flashinfer.mhc, flashinfer.topk), imported once; the top-k module builds without
    cub_topk.cu unless cub_enabled()."""
    _register_empty_package()
    mhc = importlib.import_module("flashinfer.mhc")
    topk = importlib.import_module("flashinfer.topk")
    if not cub_enabled():
        topk.gen_topk_module = _topk_spec_without_cub  # read by topk.get_topk_module at its first call
    return mhc, topk


def build() -> None:
    """JIT-builds (or loads from the cache) both modules and reports the time of each."""
    mhc, topk = modules()
    for name, get in (("mhc", mhc.get_mhc_module), ("topk", topk.get_topk_module)):
        start = time.perf_counter()
        get()
        print(f"flashinfer {name}: ready in {time.perf_counter() - start:.1f} s"
              + (" (without cub_topk.cu)" if name == "topk" and not cub_enabled() else ""), flush=True)


# ---------------------------------------------------------------------------------------------
# adapters: each takes our op's positional arguments and returns a call with the same inputs


@contextlib.contextmanager
def _tf32(enabled: bool):
    previous = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = enabled
    try:
        yield
    finally:
        torch.backends.cuda.matmul.allow_tf32 = previous


def _pre(mhc, tf32: Optional[bool]) -> Adapter:
    """mhc_pre the way a user of FlashInfer computes it: the projection and sum of squares with
    torch (fp32 matmul, TF32 on or off), then mhc_pre_big_fuse; a torch RMSNorm after it when
    norm_weight is given (FlashInfer has no fused one). tf32=None: the epilogue alone, on a
    projection computed once before the timed calls."""

    def adapter(a):
        residual, fn, scale, base, *scalars = a[:9]
        norm_weight, norm_eps = a[9:11]
        tokens, n, d = residual.shape
        flat = residual.view(tokens, n * d)

        def project():
            with _tf32(bool(tf32)):
                x = flat.float()
                return torch.matmul(x, fn.T), x.square().sum(-1)

        def epilogue(dot, sqrsum):
            post, comb, layer_input = mhc.mhc_pre_big_fuse(dot, sqrsum, residual, scale, base, n * d, *scalars)
            if norm_weight is not None:
                layer_input = torch.nn.functional.rms_norm(layer_input.float(), (d,), norm_weight.float(),
                                                           norm_eps).bfloat16()
            return post, comb, layer_input

        if tf32 is None:
            projected = project()
            return lambda: epilogue(*projected)
        return lambda: epilogue(*project())

    return adapter


def _topk_radix(topk, op: str) -> Adapter:
    def adapter(a):
        logits, k, module = whole_rows(op, a), a[4], topk.get_topk_module()
        states = torch.zeros(1 << 20, dtype=torch.uint8, device=logits.device)  # multi-CTA state; the kernel resets it
        return lambda: module.radix_topk(logits, k, False, False, 0, states, None)

    return adapter


def _topk_clusters(topk, op: str) -> Adapter:
    def adapter(a):
        logits, k = whole_rows(op, a), a[4]
        return lambda: topk.topk_clusters_exact(logits, k)[0]

    return adapter


def _topk_ragged(topk, op: str, cub: bool) -> Adapter:
    """The DSA indexer's ragged transform (radix or CUB): windows as row_starts + lengths, offsets 0,
    so the output is our convention (indices relative to the row start, -1 past a short row)."""

    def adapter(a):
        logits, k = a[0], a[4]
        starts, lengths = (t.int() for t in topk_windows(op, a))
        row_starts = starts if op == "top_k_per_row_prefill" else None
        offsets = torch.zeros_like(lengths)
        out = torch.empty(logits.shape[0], k, dtype=torch.int32, device=logits.device)
        module = topk.get_topk_module()
        if cub:
            size = module.cub_topk_ragged_transform_workspace_size(logits, lengths, k, 0, row_starts is not None)
            workspace = torch.empty(max(size, 1), dtype=torch.uint8, device=logits.device)
        else:
            states = torch.zeros(1 << 20, dtype=torch.uint8, device=logits.device)

        def call():
            if cub:
                module.cub_topk_ragged_transform(logits, out, offsets, lengths, workspace, k, 0, row_starts)
            else:
                module.radix_topk_ragged_transform(logits, out, offsets, lengths, states, k, False, 0, False,
                                                   row_starts)
            return out

        return call

    return adapter


def adapters(variant: str) -> Dict[str, Adapter]:
    """The adapter table of one FlashInfer peer (its name in peers.PEERS)."""
    mhc, topk = modules()
    topk_ops = ("top_k_per_row_prefill", "top_k_per_row_decode")
    if variant == "flashinfer":
        return {"mhc_post": lambda a: lambda: mhc.mhc_post(*a[:4]), "mhc_pre": _pre(mhc, tf32=False),
                **{op: _topk_radix(topk, op) for op in topk_ops}}
    if variant == "flashinfer_tf32":
        return {"mhc_pre": _pre(mhc, tf32=True)}
    if variant == "flashinfer_epilogue":
        return {"mhc_pre": _pre(mhc, tf32=None)}
    if variant == "flashinfer_ragged":
        return {op: _topk_ragged(topk, op, cub=False) for op in topk_ops}
    if variant == "flashinfer_clusters":
        return {op: _topk_clusters(topk, op) for op in topk_ops}
    if not cub_enabled():
        raise PeerSkipped(f"cub_topk.cu is not built (> 9 min of JIT: scripts/gpu_check.sh peers-cub, then "
                          f"{CUB_ENV}=1)")
    return {op: _topk_ragged(topk, op, cub=True) for op in topk_ops}


if __name__ == "__main__":
    build()
