"""DecoderLayer: the DeepSeek-V4 block with its attention-side and FFN-side hyper connections
fused across layer seams (shared/spec/ops.md §4.2). One forward signature and one 4-tuple of
tensors on every backend; no platform branch."""

from typing import Optional, Tuple

import torch
from torch import nn

from .config import DeepseekV4Config
from .hyper_connection import HyperConnection
from .norm import RMSNorm
from .streams import AuxStreams, SubLayerFactory, build_sublayer

Tensor = torch.Tensor


class DecoderLayer(nn.Module):
    """Attention and FFN sub-layers, each between an mHC pre and post.

    `attn(positions, h [T, D]) -> [T, D]` and `ffn(h [T, D], input_ids) -> [T, D]` come from injected
    factories, which receive the model's shared aux streams. The norms are applied exactly once, fused
    into the pre through norm_weight; their forward is never called. The FFN post is deferred: the
    next layer (or the model, or the MTP layer) applies it, fused with its own attention pre.
    """

    def __init__(self, config: DeepseekV4Config, layer_index: int, make_attn: SubLayerFactory,
                 make_ffn: SubLayerFactory, aux_streams: AuxStreams = ()):
        """Builds attention and FFN with `make_attn(layer_index, aux_streams)` and `make_ffn(...)` (or
        their one-argument form), fresh norms and hyper connections sized by `config`. `aux_streams` is
        the model's shared list, kept as given (never copied, never created here). The MTP layer takes
        the same first five arguments."""
        super().__init__()
        d, eps = config.hidden_size, config.rms_norm_eps
        self.layer_index = layer_index
        self.aux_streams = aux_streams
        self.attn = build_sublayer(make_attn, layer_index, aux_streams)
        self.ffn = build_sublayer(make_ffn, layer_index, aux_streams)
        self.attn_norm = RMSNorm(d, eps)
        self.ffn_norm = RMSNorm(d, eps)
        self.hc_attn = HyperConnection(config)
        self.hc_ffn = HyperConnection(config)

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
