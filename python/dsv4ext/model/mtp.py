"""Multi-token prediction (shared/spec/ops.md §4.4): MTPLayer with its own hc_head, final norm and
decoder block; the embedding and LM head are the parent model's, passed in, never copied."""

from typing import List, Optional, Tuple

import torch
from torch import nn

from .config import DeepseekV4Config
from .decoder_layer import DecoderLayer
from .hyper_connection import HCHead
from .norm import RMSNorm
from .streams import AuxStreams, SubLayerFactory

Tensor = torch.Tensor


class MTPLayer(nn.Module):
    """One MTP step: e = enorm(embed(ids), zero at position 0), p = hnorm(previous streams),
    h = h_proj(p) + e_proj(e) per stream, then a decoder block and its deferred post.

    Checkpoint names under `mtp.{i}.`: enorm, hnorm, e_proj, h_proj, norm, hc_head_*, and the block's
    (hc_attn_*, hc_ffn_*, attn_norm, ffn_norm, attn.*, ffn.*).
    """

    def __init__(self, config: DeepseekV4Config, layer_index: int, make_attn: SubLayerFactory,
                 make_ffn: SubLayerFactory, aux_streams: AuxStreams = (), *, embed: nn.Embedding,
                 head: nn.Linear):
        """The same first five arguments as DecoderLayer (its block is built from them, with the same
        aux_streams list: an MTP layer never creates streams); embed and head are the model's."""
        super().__init__()
        d, eps = config.hidden_size, config.rms_norm_eps
        self.hc_mult = config.hc_mult
        self.aux_streams = aux_streams
        self.enorm = RMSNorm(d, eps)
        self.hnorm = RMSNorm(d, eps)
        self.e_proj = nn.Linear(d, d, bias=False, dtype=torch.bfloat16)
        self.h_proj = nn.Linear(d, d, bias=False, dtype=torch.bfloat16)
        self.block = DecoderLayer(config, layer_index, make_attn, make_ffn, aux_streams)
        self.norm = RMSNorm(d, eps)
        self.hc_head = HCHead(config)  # this layer's own, never the model's
        self.embed = embed  # shared with the model
        self.head = head  # shared with the model
        # (streams returned by the last forward, their normed head output from the same fused op)
        self._fused: Optional[Tuple[Tensor, Tensor]] = None

    def forward(self, input_ids: Tensor, positions: Tensor, previous_hidden_states: Tensor,
                inputs_embeds: Optional[Tensor] = None) -> Tensor:
        """previous_hidden_states [T, n*D] (the model's MTP stash, or this layer's previous output)
        -> the next streams [T, n*D] bf16, fed back for further speculative steps. The block's last
        post runs fused with this layer's hc_head and norm (mhc_post_hc_head), whose output
        compute_logits then uses for these streams."""
        e = self.embed(input_ids) if inputs_embeds is None else inputs_embeds
        e = self.enorm(e.masked_fill((positions == 0).unsqueeze(-1), 0))
        p = self.hnorm(previous_hidden_states.unflatten(-1, (self.hc_mult, -1)))
        h = self.h_proj(p) + self.e_proj(e).unsqueeze(-2)
        x, residual, post_mix, res_mix = self.block(h, positions, input_ids)
        streams = torch.empty_like(residual)
        hidden = self.hc_head.post_head(x, residual, post_mix, res_mix, self.norm, streams_out=streams)
        out = streams.flatten(-2)
        self._fused = (out, hidden)
        return out

    def compute_logits(self, hidden_states: Tensor) -> Tensor:
        """[T, n*D] -> fp32 logits [T, vocab] through this layer's hc_head and norm and the shared head.
        For the streams the last forward returned, the head output of its fused op; otherwise hc_head
        then the norm."""
        if self._fused is not None and hidden_states is self._fused[0]:
            y = self._fused[1]
        else:
            y = self.norm(self.hc_head(hidden_states.unflatten(-1, (self.hc_mult, -1))))
        return self.head(y).float()


class MultiTokenPredictor(nn.Module):
    """The MTP layers; speculative step k runs layer k mod (number of layers)."""

    def __init__(self, layers: List[MTPLayer]):
        super().__init__()
        if not layers:
            raise ValueError("MultiTokenPredictor needs at least one MTPLayer")
        self.layers = nn.ModuleList(layers)

    def forward(self, input_ids: Tensor, positions: Tensor, previous_hidden_states: Tensor,
                inputs_embeds: Optional[Tensor] = None, spec_step_index: int = 0) -> Tensor:
        layer = self.layers[spec_step_index % len(self.layers)]
        return layer(input_ids, positions, previous_hidden_states, inputs_embeds)

    def compute_logits(self, hidden_states: Tensor, spec_step_idx: int = 0) -> Tensor:
        return self.layers[spec_step_idx % len(self.layers)].compute_logits(hidden_states)
