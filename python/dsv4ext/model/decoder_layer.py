"""DecoderLayer: the DeepSeek-V4 block with its attention-side and FFN-side hyper connections
fused across layer seams (shared/spec/ops.md §4.2). One forward signature and one 4-tuple of
tensors on every backend; no platform branch. DecoderLayerV41: the DeepSeek-V4.1 block, whose pre is
delayed (docs/model.md): the same signature plus the carried pre_mix, and a 5-tuple."""

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


class DecoderLayerV41(DecoderLayer):
    """DeepSeek-V4.1: the same modules and weights; each sub-layer's input is collapsed with the pre
    weights of the sub-layer before it (mhc_pre_delayed), and the layer hands its FFN's on. Seams (a
    post, then the next sub-layer's delayed pre) run as one mhc_fused_post_pre_delayed."""

    def forward(self, x: Tensor, positions: Tensor, input_ids: Tensor, post_mix: Optional[Tensor] = None,
                res_mix: Optional[Tensor] = None, residual: Optional[Tensor] = None,
                pre_mix: Optional[Tensor] = None, *,
                aux_out: Optional[Tensor] = None) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
        """First layer: x is the embedding [T, D] (broadcast to n streams; the broadcast entry) or the
        streams [T, n, D] with the pre_mix of a previous pipeline rank (None: stream 0, the identity
        entry the MTP's first block takes). Later layers: x is the previous layer's FFN output [T, D],
        (post_mix, res_mix, residual) its deferred post state and pre_mix its FFN's new pre weights.
        aux_out [T, D] bf16, when given, receives the mean over the n streams entering this layer (the
        MTP's context tap; vLLM's capture_previous_aux).

        Returns (ffn output [T, D], residual [T, n, D], post_mix [T, n, 1], res_mix [T, n, n],
        pre_mix [T, n] fp32 for the next layer's attention).
        """
        attn_norm = (self.attn_norm.weight, self.attn_norm.eps)
        if residual is None and x.dim() == 2:
            residual = x.unsqueeze(-2).expand(-1, self.hc_attn.hc_mult, -1).contiguous()
            post_mix, res_mix, h, attn_pre = self.hc_attn.pre_delayed(residual, None, x, *attn_norm)
        elif residual is None:
            residual = x
            post_mix, res_mix, h, attn_pre = self.hc_attn.pre_delayed(residual, pre_mix, None, *attn_norm)
        elif post_mix is None or res_mix is None or pre_mix is None:
            raise ValueError("DecoderLayerV41: residual was given without post_mix, res_mix and pre_mix; pass "
                             "all four (the previous layer's deferred state) or none (first layer)")
        else:  # the seam: the previous layer's FFN post, then this attention's delayed pre, one op
            residual, post_mix, res_mix, h, attn_pre = self.hc_attn.fused_post_pre_delayed(
                x, residual, post_mix, res_mix, pre_mix, *attn_norm)
        if aux_out is not None:
            aux_out.copy_(residual.mean(-2))
        a = self.attn(positions, h)
        residual, post_mix, res_mix, h, ffn_pre = self.hc_ffn.fused_post_pre_delayed(
            a, residual, post_mix, res_mix, attn_pre, self.ffn_norm.weight, self.ffn_norm.eps)
        return self.ffn(h, input_ids), residual, post_mix, res_mix, ffn_pre
