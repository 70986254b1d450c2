"""Typed Python wrappers over ``torch.ops.dsv4ext``."""

from .mhc import (hc_head, mhc_fused_post_pre, mhc_fused_post_pre_delayed, mhc_post, mhc_post_hc_head, mhc_pre,
                  mhc_pre_delayed, sinkhorn)
from .topk import ragged_pack, top_k_per_row_decode, top_k_per_row_prefill

__all__ = [
    "hc_head",
    "mhc_fused_post_pre",
    "mhc_fused_post_pre_delayed",
    "mhc_post",
    "mhc_post_hc_head",
    "mhc_pre",
    "mhc_pre_delayed",
    "ragged_pack",
    "sinkhorn",
    "top_k_per_row_decode",
    "top_k_per_row_prefill",
]
