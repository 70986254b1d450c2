"""mHC ops (contract: shared/spec/ops.md §3). Shapes use T for the leading dims, n for hc_mult
(1..8) and D for the hidden size; residual streams are bf16, weights and mixes fp32."""

from typing import Optional, Tuple

import torch

Tensor = torch.Tensor


def mhc_pre(residual: Tensor, fn: Tensor, hc_scale: Tensor, hc_base: Tensor, rms_eps: float = 1e-6,
            hc_pre_eps: float = 1e-6, hc_sinkhorn_eps: float = 1e-6, hc_post_mult_value: float = 2.0,
            sinkhorn_repeat: int = 20, norm_weight: Optional[Tensor] = None,
            norm_eps: float = 1e-6) -> Tuple[Tensor, Tensor, Tensor]:
    """Hyper-connection pre of one sub-layer.

    residual [..., n, D] bf16; fn [n(n+2), n*D], hc_scale [3], hc_base [n(n+2)] fp32;
    norm_weight [D] bf16 fuses the sub-layer's RMSNorm into layer_input.
    Returns post_mix [..., n, 1] fp32, comb_mix [..., n, n] fp32, layer_input [..., D] bf16.
    """
    return torch.ops.dsv4ext.mhc_pre(residual, fn, hc_scale, hc_base, rms_eps, hc_pre_eps, hc_sinkhorn_eps,
                                     hc_post_mult_value, sinkhorn_repeat, norm_weight, norm_eps)


def mhc_pre_delayed(residual: Tensor, fn: Tensor, hc_scale: Tensor, hc_base: Tensor, rms_eps: float = 1e-6,
                    hc_pre_eps: float = 1e-6, hc_sinkhorn_eps: float = 1e-6, hc_post_mult_value: float = 2.0,
                    sinkhorn_repeat: int = 20, pre_mix: Optional[Tensor] = None, x: Optional[Tensor] = None,
                    norm_weight: Optional[Tensor] = None,
                    norm_eps: float = 1e-6) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """DeepSeek-V4.1's delayed hyper-connection pre of one sub-layer (vLLM's argument list).

    The mixes are mhc_pre's, projected from x [..., D] bf16 when given (the first layer's broadcast
    entry: fn [n(n+2), D]) or from the residual [..., n, D] bf16 (fn [n(n+2), n*D]). layer_input
    collapses the residual with the carried pre_mix [..., n] fp32 of the previous sub-layer, or is
    residual[..., 0, :] without one; norm_weight [D] bf16 fuses the sub-layer's RMSNorm into it.
    Returns post_mix [..., n, 1], comb_mix [..., n, n] fp32, layer_input [..., D] bf16 and the new
    pre weights new_pre [..., n] fp32 for the next sub-layer.
    """
    return torch.ops.dsv4ext.mhc_pre_delayed(residual, fn, hc_scale, hc_base, rms_eps, hc_pre_eps,
                                             hc_sinkhorn_eps, hc_post_mult_value, sinkhorn_repeat, pre_mix, x,
                                             norm_weight, norm_eps)


def mhc_post(x: Tensor, residual: Tensor, post_layer_mix: Tensor, comb_res_mix: Tensor) -> Tensor:
    """Hyper-connection post: out[..., j, :] = post[j] * x + sum_i comb[i, j] * residual[..., i, :].

    x [..., D] bf16, residual [..., n, D] bf16, post_layer_mix [..., n, 1] (or [..., n]) fp32,
    comb_res_mix [..., n, n] fp32 (first index = source stream). Returns [..., n, D] bf16.
    """
    return torch.ops.dsv4ext.mhc_post(x, residual, post_layer_mix, comb_res_mix)


def mhc_fused_post_pre(x: Tensor, residual: Tensor, post_layer_mix: Tensor, comb_res_mix: Tensor, fn: Tensor,
                       hc_scale: Tensor, hc_base: Tensor, rms_eps: float = 1e-6, hc_pre_eps: float = 1e-6,
                       hc_sinkhorn_eps: float = 1e-6, hc_post_mult_value: float = 2.0,
                       sinkhorn_repeat: int = 20, norm_weight: Optional[Tensor] = None,
                       norm_eps: float = 1e-6) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """mhc_post of one sub-layer then mhc_pre of the next, the pre reading the stored bf16 residual.

    fn, hc_scale, hc_base and norm_weight belong to the next sub-layer.
    Returns (residual_out [..., n, D] bf16, post_mix, comb_mix, layer_input), as ``mhc_pre``.
    """
    return torch.ops.dsv4ext.mhc_fused_post_pre(x, residual, post_layer_mix, comb_res_mix, fn, hc_scale,
                                                hc_base, rms_eps, hc_pre_eps, hc_sinkhorn_eps,
                                                hc_post_mult_value, sinkhorn_repeat, norm_weight, norm_eps)


def mhc_fused_post_pre_delayed(x: Tensor, residual: Tensor, post_layer_mix: Tensor, comb_res_mix: Tensor, fn: Tensor,
                               hc_scale: Tensor, hc_base: Tensor, rms_eps: float = 1e-6, hc_pre_eps: float = 1e-6,
                               hc_sinkhorn_eps: float = 1e-6, hc_post_mult_value: float = 2.0,
                               sinkhorn_repeat: int = 20, pre_mix: Optional[Tensor] = None,
                               norm_weight: Optional[Tensor] = None,
                               norm_eps: float = 1e-6) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
    """DeepSeek-V4.1's seam: mhc_post of one sub-layer then mhc_pre_delayed of the next on the stored
    bf16 residual (vLLM's `mhc_fused_post_pre_delayed` argument list).

    x, residual, post_layer_mix, comb_res_mix as ``mhc_post``; fn [n(n+2), n*D], hc_scale, hc_base,
    norm_weight belong to the next sub-layer; pre_mix [..., n] fp32 is the carried pre weights (the
    previous sub-layer's new_pre), or None for stream 0. Returns (residual_out [..., n, D] bf16,
    post_mix [..., n, 1], comb_mix [..., n, n], layer_input [..., D] bf16, new_pre [..., n] fp32),
    equal to ``mhc_post`` followed by ``mhc_pre_delayed`` on its output.
    """
    return torch.ops.dsv4ext.mhc_fused_post_pre_delayed(x, residual, post_layer_mix, comb_res_mix, fn, hc_scale,
                                                        hc_base, rms_eps, hc_pre_eps, hc_sinkhorn_eps,
                                                        hc_post_mult_value, sinkhorn_repeat, pre_mix, norm_weight,
                                                        norm_eps)


def sinkhorn(logits: Tensor, repeat: int = 20, eps: float = 1e-6) -> Tensor:
    """Row softmax, +eps, then `repeat` column and `repeat - 1` row normalisations of [..., n, n] fp32."""
    return torch.ops.dsv4ext.sinkhorn(logits, repeat, eps)


def hc_head(hidden_states: Tensor, fn: Tensor, hc_scale: Tensor, hc_base: Tensor, rms_eps: float = 1e-6,
            hc_eps: float = 1e-6) -> Tensor:
    """Collapse the n streams before the final norm: hidden_states [..., n, D] bf16, fn [n, n*D],
    hc_scale [1], hc_base [n] fp32. Returns [..., D] bf16."""
    return torch.ops.dsv4ext.hc_head(hidden_states, fn, hc_scale, hc_base, rms_eps, hc_eps)


def mhc_post_hc_head(x: Tensor, residual: Tensor, post_layer_mix: Tensor, comb_res_mix: Tensor, fn: Tensor,
                     hc_scale: Tensor, hc_base: Tensor, rms_eps: float = 1e-6, hc_eps: float = 1e-6,
                     norm_weight: Optional[Tensor] = None, norm_eps: float = 1e-6,
                     streams_out: Optional[Tensor] = None) -> Tensor:
    """The model's final seam in one pass: mhc_post, then hc_head on the bf16 streams it stores, then
    the optional final RMSNorm on the bf16 head output (spec §4.6); equal to the three ops composed.

    x, residual, post_layer_mix, comb_res_mix as ``mhc_post``; fn [n, n*D], hc_scale [1], hc_base [n]
    fp32 as ``hc_head``; norm_weight [D] bf16 (the final norm). streams_out [..., n, D] bf16, when
    given, receives the new streams (the MTP stash), bitwise ``mhc_post``'s output; it must not
    overlap x or residual. Returns [..., D] bf16.
    """
    return torch.ops.dsv4ext.mhc_post_hc_head(x, residual, post_layer_mix, comb_res_mix, fn, hc_scale, hc_base,
                                              rms_eps, hc_eps, norm_weight, norm_eps, streams_out)
