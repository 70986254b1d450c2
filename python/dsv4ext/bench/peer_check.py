"""A peer's output checked against the spec before it is timed: a fast peer that is wrong is
reported as wrong, not as fast.

mHC ops and Sinkhorn: the peer's outputs against `dsv4ext.reference` (float64, final roundings
skipped): fp32 outputs (the mixes) as the largest error relative to the output's largest magnitude,
bf16 outputs in ulps (dsv4ext.check's measures). Top-k: the rows whose selected values, as a multiset,
differ from torch.topk's on the row's window. Only the first CHECK_ROWS tokens (rows) are compared:
every op is row-independent, and the float64 reference of a 65536-token call would not fit.
"""

from typing import Dict, Optional, Tuple

import torch

from .. import reference
from ..check import rel_error, ulp_error

CHECK_ROWS = 1024
# Our ops' own limits (dsv4ext.check): mixes 1e-5 relative, bf16 outputs 2 ulp (1 without the fused
# RMSNorm, which a peer may apply separately), top-k exact.
LIMITS = {"mix_rel": 1e-5, "ulp": 2.0, "rows_wrong": 0.0}
# Positional arguments that carry one entry per token (sliced to CHECK_ROWS); the rest are weights.
TOKEN_ARGS = {"mhc_pre": (0,), "mhc_pre_delayed": (0, 9, 10), "mhc_post": (0, 1, 2, 3),
              "mhc_fused_post_pre": (0, 1, 2, 3), "mhc_fused_post_pre_delayed": (0, 1, 2, 3, 12), "hc_head": (0,),
              "sinkhorn": (0,)}


def _as_tuple(out) -> tuple:
    return out if isinstance(out, (tuple, list)) else (out,)


def mhc_error(op: str, args: tuple, out) -> Optional[Dict[str, float]]:
    """{'mix_rel': ..., 'ulp': ...} over the peer's fp32 and bf16 outputs (a key only where the op has
    such outputs); None when `out` is not the op's outputs (a peer covering only part of the op)."""
    rows = min(CHECK_ROWS, args[0].shape[0])
    ref_args = tuple(a[:rows] if i in TOKEN_ARGS[op] and a is not None else a for i, a in enumerate(args))
    want = _as_tuple(getattr(reference, op)(*ref_args, exact=True))
    got = _as_tuple(out)
    if len(got) != len(want) or not all(isinstance(g, torch.Tensor) and g.shape[1:] == w.shape[1:]
                                        for g, w in zip(got, want)):
        return None
    errors: Dict[str, float] = {}
    for g, w in zip(got, want):
        key, measure = ("ulp", ulp_error) if g.dtype == torch.bfloat16 else ("mix_rel", rel_error)
        errors[key] = max(errors.get(key, 0.0), measure(g[:rows], w))
    return errors


def topk_rows_wrong(logits: torch.Tensor, starts: torch.Tensor, lengths: torch.Tensor,
                    indices: torch.Tensor) -> int:
    """Rows whose selected values (indices relative to the row start; -1 = no entry) differ as a
    multiset from torch.topk's over the window [start, start + length). Indices outside the window
    count as wrong. Assumes no NaN logits and k <= the row width."""
    width, k = logits.shape[1], indices.shape[1]
    starts, lengths, idx = starts.long()[:, None], lengths.long()[:, None], indices.long()
    pos = torch.arange(width, device=logits.device)
    in_window = (pos >= starts) & (pos < starts + lengths)
    want = torch.where(in_window, logits, float("-inf")).topk(k, dim=1).values
    valid = (idx >= 0) & (idx < lengths)
    picked = logits.gather(1, (starts + idx).clamp(0, width - 1))
    got = torch.where(valid, picked, float("-inf")).sort(dim=1, descending=True).values
    bad = (got != want).any(1) | ((idx != -1) & ~valid).any(1)
    return int(bad.sum())


def topk_windows(op: str, args: tuple) -> Tuple[torch.Tensor, torch.Tensor]:
    """(start, length) of every row's window (int64, on the logits' device) from our op's args."""
    rows, width = args[0].shape
    if op == "top_k_per_row_prefill":
        return reference.row_windows_prefill(width, args[1], args[2])
    return reference.row_windows_decode(rows, width, args[1], args[2])


def whole_rows(op: str, args: tuple) -> torch.Tensor:
    """The logits, after checking every row's window is the whole row: for the peers whose top-k has
    no row windows (FlashInfer's radix_topk and cluster top-k, CUB's batched top-k)."""
    starts, lengths = topk_windows(op, args)
    if bool((starts != 0).any()) or bool((lengths != args[0].shape[1]).any()):
        raise ValueError("this peer's top-k has no row windows; the rows here are not whole")
    return args[0]


def topk_error(op: str, args: tuple, out) -> Dict[str, float]:
    """{'rows_wrong': ...} of a top-k peer over the first CHECK_ROWS rows. `args` are our op's
    (logits, row_starts | next_n, row_ends | seq_lens, indices, k, ...); a peer that returns
    nothing wrote into args[3]."""
    logits = args[0]
    indices = args[3] if out is None else out
    rows = min(CHECK_ROWS, logits.shape[0])
    starts, lengths = topk_windows(op, args)
    wrong = topk_rows_wrong(logits[:rows], starts[:rows], lengths[:rows], indices[:rows])
    return {"rows_wrong": float(wrong)}


def error(op: str, args: tuple, out) -> Optional[Dict[str, float]]:
    """The peer's error on one call of `op` with our op's `args`, or None where it is not checked
    (ragged_pack; outputs not in the op's form)."""
    if op in TOKEN_ARGS:
        return mhc_error(op, args, out)
    if op.startswith("top_k_per_row_"):
        return topk_error(op, args, out)
    return None


def within_limits(errors: Dict[str, float]) -> bool:
    return all(v <= LIMITS[k] for k, v in errors.items())


def describe(errors: Dict[str, float]) -> str:
    """'mix_rel 3.1e-07, ulp 1' -- each error with its limit when it is over."""
    return ", ".join(f"{k} {v:.3g}" + (f" > {LIMITS[k]:g}" if v > LIMITS[k] else "") for k, v in errors.items())
