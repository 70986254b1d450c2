"""DecoderLayer: the DeepSeek-V4 block with its attention-side and FFN-side hyper connections
fused across layer seams (shared/spec/ops.md §4.2). One forward signature and one 4-tuple of
tensors on every backend; no platform branch."""

from typing import Optional, Tuple

import torch
from torch import nn

from .config import DeepseekV4Config
from .hyper_connection import HyperConnection
from .norm import RMSNorm

Tensor = torch.Tensor


class DecoderLayer(nn.Module):
    """Attention and FFN sub-layers, each between an mHC pre and post.

    `attn(positions, h [T, D]) -> [T, D]` and `ffn(h [T, D], input_ids) -> [T, D]` are injected, as are
    the norms (any module with `weight` [D] bf16 and `eps`). The norms are applied exactly once, fused
    into the pre through norm_weight; their forward is never called. The FFN post is deferred: the
    next layer (or the model, or the MTP layer) applies it, fused with its own attention pre.
    """

    def __init__(self, attn: nn.Module, ffn: nn.Module, attn_norm: RMSNorm, ffn_norm: RMSNorm,
                 hc_attn: HyperConnection, hc_ffn: HyperConnection):
        super().__init__()
        self.attn = attn
        self.ffn = ffn
        self.attn_norm = attn_norm
        self.ffn_norm = ffn_norm
        self.hc_attn = hc_attn
        self.hc_ffn = hc_ffn

    @classmethod
    def build(cls, config: DeepseekV4Config, attn: nn.Module, ffn: nn.Module) -> "DecoderLayer":
        """A layer around `attn` and `ffn` with fresh norms and hyper connections sized by `config`."""
        d, eps = config.hidden_size, config.rms_norm_eps
        return cls(attn, ffn, RMSNorm(d, eps), RMSNorm(d, eps), HyperConnection(config), HyperConnection(config))

    def forward(self, x: Tensor, positions: Tensor, input_ids: Tensor, post_mix: Optional[Tensor] = None,
                res_mix: Optional[Tensor] = None,
                residual: Optional[Tensor] = None) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        """First layer (residual None): x is the stream state [T, n, D]. Later layers: x is the previous
        layer's FFN output [T, D] and (post_mix, res_mix, residual) its deferred post state.

        Returns (ffn output [T, D] bf16, residual [T, n, D] bf16, post_mix [T, n, 1] fp32,
        res_mix [T, n, n] fp32): this layer's deferred FFN post state.
        """
        if residual is None:
            residual = x
            post_mix, res_mix, h = self.hc_attn.pre(x, self.attn_norm.weight, self.attn_norm.eps)
        elif post_mix is None or res_mix is None:
            raise ValueError("DecoderLayer: residual was given without post_mix and res_mix; pass all three "
                             "(the previous layer's deferred post state) or none (first layer)")
        else:
            residual, post_mix, res_mix, h = self.hc_attn.fused_post_pre(
                x, residual, post_mix, res_mix, self.attn_norm.weight, self.attn_norm.eps)
        a = self.attn(positions, h)
        residual, post_mix, res_mix, h = self.hc_ffn.fused_post_pre(
            a, residual, post_mix, res_mix, self.ffn_norm.weight, self.ffn_norm.eps)
        return self.ffn(h, input_ids), residual, post_mix, res_mix
