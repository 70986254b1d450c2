"""CUB's batched top-k (cub::DeviceBatchedTopK, CCCL 3.6) as a bench peer, through the
benchmark-only library benchmarks/cub_batched_topk.cu (built by scripts/build_cub_topk.sh; its path
in DSV4EXT_CUB_TOPK_LIB). Two peers: `cub` (GPU-to-GPU deterministic, ties to the lower index: our
contract) and `cub_fast` (no determinism guarantee). Whole rows only.
"""

import ctypes
import functools
import os
from typing import Dict

import torch

from .peer_check import whole_rows
from .peers import Adapter, PeerSkipped

LIB_ENV = "DSV4EXT_CUB_TOPK_LIB"


@functools.lru_cache(maxsize=None)
def _library(path: str) -> ctypes.CDLL:
    lib = ctypes.CDLL(path)
    i64, ptr = ctypes.c_int64, ctypes.c_void_p
    lib.dsv4ext_cub_topk_temp_bytes.argtypes = [ctypes.c_int, i64, i64, i64]
    lib.dsv4ext_cub_topk_temp_bytes.restype = i64
    lib.dsv4ext_cub_topk.argtypes = [ctypes.c_int, ptr, i64, ptr, i64, i64, i64, ptr, ptr]
    lib.dsv4ext_cub_topk.restype = ctypes.c_int
    lib.dsv4ext_cub_error_string.argtypes = [ctypes.c_int]
    lib.dsv4ext_cub_error_string.restype = ctypes.c_char_p
    return lib


def _topk(lib, op: str, deterministic: bool) -> Adapter:
    def adapter(a):
        logits, k = whole_rows(op, a).contiguous(), a[4]
        rows, width = logits.shape
        nbytes = lib.dsv4ext_cub_topk_temp_bytes(int(deterministic), rows, width, k)
        if nbytes < 0:
            raise ValueError(f"cub::DeviceBatchedTopK rejects {rows}x{width} k={k}")
        temp = torch.empty(max(nbytes, 1), dtype=torch.uint8, device=logits.device)
        out = torch.empty(rows, k, dtype=torch.int32, device=logits.device)

        def call():
            error = lib.dsv4ext_cub_topk(int(deterministic), temp.data_ptr(), nbytes, logits.data_ptr(), rows,
                                         width, k, out.data_ptr(), torch.cuda.current_stream().cuda_stream)
            if error:
                raise RuntimeError(f"cub::DeviceBatchedTopK: {lib.dsv4ext_cub_error_string(error).decode()}")
            return out

        return call

    return adapter


def adapters(deterministic: bool) -> Dict[str, Adapter]:
    path = os.environ.get(LIB_ENV, "")
    if not os.path.isfile(path):
        raise PeerSkipped(f"{LIB_ENV} names no library (scripts/build_cub_topk.sh builds it)")
    lib = _library(path)
    return {op: _topk(lib, op, deterministic) for op in ("top_k_per_row_prefill", "top_k_per_row_decode")}
