"""Hyper-connection weights of one sub-layer (HyperConnection) and of the head mix (HCHead), with the
DeepSeek-V4 scalars bound once (shared/spec/ops.md §2, §3.5-3.8, §4.2). Weights are fp32 and
start at zero; a checkpoint fills them in place (see dsv4ext.model.checkpoint)."""

from typing import Optional, Tuple

import torch
from torch import nn

from .. import ops
from .config import HC_POST_MULT, DeepseekV4Config

Tensor = torch.Tensor


def _weight(*shape: int) -> nn.Parameter:
    return nn.Parameter(torch.zeros(*shape, dtype=torch.float32), requires_grad=False)


class HyperConnection(nn.Module):
    """fn [n(n+2), n*D], base [n(n+2)], scale [3] of one sub-layer (attention or FFN), and its pre/post.

    Checkpoint names: `hc_attn_fn|base|scale` or `hc_ffn_fn|base|scale` of a layer.
    """

    def __init__(self, config: DeepseekV4Config):
        super().__init__()
        self.hc_mult = config.hc_mult
        self.fn = _weight(config.hc_mix_rows, config.hc_dim)
        self.base = _weight(config.hc_mix_rows)
        self.scale = _weight(3)
        self.rms_eps = config.rms_norm_eps
        self.hc_eps = config.hc_eps  # hc_pre_eps and hc_sinkhorn_eps
        self.sinkhorn_iters = config.hc_sinkhorn_iters

    def _pre_args(self) -> tuple:
        return (self.fn, self.scale, self.base, self.rms_eps, self.hc_eps, self.hc_eps, HC_POST_MULT,
                self.sinkhorn_iters)

    def pre(self, residual: Tensor, norm_weight: Optional[Tensor] = None,
            norm_eps: float = 1e-6) -> Tuple[Tensor, Tensor, Tensor]:
        """Streams [T, n, D] -> (post_mix [T, n, 1], comb_mix [T, n, n], layer_input [T, D]);
        norm_weight fuses the sub-layer's RMSNorm into layer_input."""
        return ops.mhc_pre(residual, *self._pre_args(), norm_weight, norm_eps)

    def pre_delayed(self, residual: Tensor, pre_mix: Optional[Tensor] = None, x: Optional[Tensor] = None,
                    norm_weight: Optional[Tensor] = None,
                    norm_eps: float = 1e-6) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        """DeepSeek-V4.1's delayed pre: (post_mix, comb_mix, layer_input, new pre_mix [T, n]);
        layer_input collapses `residual` with the carried pre_mix (stream 0 without one). With x [T, D]
        (the first layer's single stream) the mixes project x with fn summed over its n column blocks,
        which on n copies of x is the same projection (vLLM derives it once after loading)."""
        args = list(self._pre_args())
        if x is not None:
            args[0] = self.fn.unflatten(1, (self.hc_mult, -1)).sum(1)
        return ops.mhc_pre_delayed(residual, *args, pre_mix, x, norm_weight, norm_eps)

    def post(self, x: Tensor, residual: Tensor, post_mix: Tensor, comb_mix: Tensor) -> Tensor:
        """Sub-layer output x [T, D] back into the streams that entered this sub-layer's pre."""
        return ops.mhc_post(x, residual, post_mix, comb_mix)

    def fused_post_pre(self, x: Tensor, residual: Tensor, post_mix: Tensor, comb_mix: Tensor,
                       norm_weight: Optional[Tensor] = None,
                       norm_eps: float = 1e-6) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        """The previous sub-layer's post (x, residual, post_mix, comb_mix are its) then this one's pre:
        (residual [T, n, D], post_mix, comb_mix, layer_input), equal to post() then pre()."""
        return ops.mhc_fused_post_pre(x, residual, post_mix, comb_mix, *self._pre_args(), norm_weight, norm_eps)


    def fused_post_pre_delayed(self, x: Tensor, residual: Tensor, post_mix: Tensor, comb_mix: Tensor,
                               pre_mix: Optional[Tensor] = None, norm_weight: Optional[Tensor] = None,
                               norm_eps: float = 1e-6) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
        """DeepSeek-V4.1's seam: the previous sub-layer's post (x, residual, post_mix, comb_mix are its)
        then this one's delayed pre, collapsing with the carried pre_mix: (residual, post_mix, comb_mix,
        layer_input, new pre_mix), equal to post() then pre_delayed()."""
        return ops.mhc_fused_post_pre_delayed(x, residual, post_mix, comb_mix, *self._pre_args(), pre_mix,
                                              norm_weight, norm_eps)


def collapse_streams(streams: Tensor, pre_mix: Tensor) -> Tensor:
    """DeepSeek-V4.1's tail (no learned hc_head): the streams [T, n, D] collapsed with the last FFN's pre
    weights [T, n], an fp32 weighted sum rounded once to bf16 [T, D] (vLLM's hc_collapse)."""
    return (pre_mix.unsqueeze(-1) * streams.float()).sum(-2).to(torch.bfloat16)


class HCHead(nn.Module):
    """Head mix fn [n, n*D], base [n], scale [1]: collapses the streams [T, n, D] to [T, D] before the
    final norm. The model and every MTP layer own one each (`hc_head_*`, `mtp.{i}.hc_head_*`)."""

    def __init__(self, config: DeepseekV4Config):
        super().__init__()
        self.fn = _weight(config.hc_mult, config.hc_dim)
        self.base = _weight(config.hc_mult)
        self.scale = _weight(1)
        self.rms_eps = config.rms_norm_eps
        self.hc_eps = config.hc_eps

    def forward(self, hidden_states: Tensor) -> Tensor:
        return ops.hc_head(hidden_states, self.fn, self.scale, self.base, self.rms_eps, self.hc_eps)

    def post_head(self, x: Tensor, residual: Tensor, post_mix: Tensor, comb_mix: Tensor,
                  norm: Optional[nn.Module] = None, streams_out: Optional[Tensor] = None) -> Tensor:
        """The final seam in one op (spec §4.6): the last sub-layer's deferred post (x [T, D], residual,
        post_mix, comb_mix are its), this head on the bf16 streams it stores, then `norm` (a module with
        `weight` [D] bf16 and `eps`; its forward is not called) on the bf16 head output: [T, D] bf16.
        streams_out [T, n, D] bf16, when given, receives the streams (the MTP stash)."""
        weight, eps = (None, 1e-6) if norm is None else (norm.weight, norm.eps)
        return ops.mhc_post_hc_head(x, residual, post_mix, comb_mix, self.fn, self.scale, self.base, self.rms_eps,
                                    self.hc_eps, weight, eps, streams_out)
