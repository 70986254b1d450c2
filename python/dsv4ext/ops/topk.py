"""Per-row top-k and the graph-safe ragged pack (contract: shared/spec/topk.md)."""

from typing import Optional, Tuple

import torch

Tensor = torch.Tensor


def _indices_for(logits: Tensor, top_k: int, indices: Optional[Tensor]) -> Tensor:
    if indices is None:
        indices = torch.empty((logits.shape[0], top_k), dtype=torch.int32, device=logits.device)
    return indices


def top_k_per_row_prefill(logits: Tensor, row_starts: Tensor, row_ends: Tensor, top_k: int, *,
                          indices: Optional[Tensor] = None, deterministic: bool = False) -> Tensor:
    """Indices (relative to row_starts) of the top_k largest logits[r, row_starts[r]:row_ends[r]].

    logits [R, W] fp32 (any strides); row_starts, row_ends [R] int32. Rows shorter than top_k give
    0..len-1 then -1. Ties go to the lowest index; deterministic=True also sorts each row ascending.
    Writes into ``indices`` ([R, top_k] int32, row stride >= top_k) when given; returns it.
    """
    indices = _indices_for(logits, top_k, indices)
    torch.ops.dsv4ext.top_k_per_row_prefill(logits, row_starts, row_ends, indices, top_k, deterministic)
    return indices


def top_k_per_row_decode(logits: Tensor, next_n: int, seq_lens: Tensor, top_k: int, *,
                         indices: Optional[Tensor] = None, deterministic: bool = False) -> Tensor:
    """Decode top-k: row r = b * next_n + q has window [0, len). seq_lens [B] gives
    len = seq_lens[b] - next_n + q + 1; seq_lens [B, next_n] gives len = seq_lens[b, q]."""
    indices = _indices_for(logits, top_k, indices)
    torch.ops.dsv4ext.top_k_per_row_decode(logits, next_n, seq_lens, indices, top_k, deterministic)
    return indices


def ragged_pack(dense: Tensor, lengths: Tensor, indices_out: Tensor, indptr_out: Tensor, num_kv: int = -1,
                fill: int = -1) -> Tuple[Tensor, Tensor]:
    """CSR-pack dense[r, :lengths[r]] into persistent buffers; no host sync.

    Returns the fixed-extent views (indices_out[:R*W], indptr_out[:R+1]); readers bound themselves
    by indptr. With num_kv >= 0, values outside [0, num_kv) are written as ``fill``.
    """
    rows, width = dense.shape
    torch.ops.dsv4ext.ragged_pack(dense, lengths, indices_out, indptr_out, num_kv, fill)
    return indices_out[: rows * width], indptr_out[: rows + 1]
