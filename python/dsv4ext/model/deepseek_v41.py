"""DeepseekV41Model: the DeepSeek-V4.1 flow (docs/model.md): embedding, decoder layers whose mHC pre is
delayed (each sub-layer collapses its input with the previous sub-layer's pre weights, carried as
pre_mix), the last post, the collapse with the last FFN's pre weights, final norm and LM head; with
MTP layers, the DSpark drafter (mtp_v41) and the context taps it reads."""

import torch
from torch import nn

from .config import DeepseekV41Config
from .decoder_layer import DecoderLayerV41
from .deepseek_v4 import build_trunk
from .hyper_connection import collapse_streams
from .mtp_v41 import DSparkDrafter, MTPLayerV41
from .streams import SubLayerFactory

Tensor = torch.Tensor


class DeepseekV41Model(nn.Module):
    """The whole model on one pipeline rank, inference only, with DeepseekV4Model's constructor. No
    hc_head (V4.1 has none). With config.num_nextn_predict_layers > 0, `mtp` is the DSpark drafter
    (stage i = MTPLayerV41 with layer index num_hidden_layers + i, the model's embedding, LM head and
    aux stream list) and forward writes its context taps to aux_hidden_states(); else `mtp` is None.
    Checkpoint names: V4's without `hc_head_*`, and the drafter's mtp.{i}.* (dsv4ext.model.checkpoint).
    """

    hc_head = None

    def __init__(self, config: DeepseekV41Config, make_attn: SubLayerFactory, make_ffn: SubLayerFactory,
                 num_aux_streams: int = 3):
        super().__init__()
        build_trunk(self, config, DecoderLayerV41, make_attn, make_ffn, num_aux_streams)
        first = config.num_hidden_layers
        stages = [MTPLayerV41(config, first + i, make_attn, make_ffn, self.aux_streams, embed=self.embed,
                              head=self.head) for i in range(config.num_nextn_predict_layers)]
        self.mtp = DSparkDrafter(stages) if stages else None
        # Stable address for CUDA graphs: forward writes tap k (the mean of the streams at the input of
        # layer dspark_target_layer_ids[k]) to columns [k D, (k + 1) D) of the first T rows.
        taps = config.dspark_target_layer_ids if stages else ()
        self.register_buffer("aux_stash", torch.zeros(config.max_num_tokens, len(taps), config.hidden_size,
                                                      dtype=torch.bfloat16), persistent=False)
        self._tap_slot = {layer_id: k for k, layer_id in enumerate(taps)}
        self.requires_grad_(False)

    def forward(self, input_ids: Tensor, positions: Tensor) -> Tensor:
        """input_ids, positions [T] -> final hidden states [T, D] bf16. The first layer takes the
        embedding [T, D] itself (mhc_pre_delayed's broadcast entry)."""
        tokens = input_ids.shape[0]
        if self._tap_slot and tokens > self.aux_stash.shape[0]:
            raise ValueError(f"DeepseekV41Model: {tokens} tokens exceed max_num_tokens = {self.aux_stash.shape[0]}")
        x = self.embed(input_ids)
        residual = post_mix = res_mix = pre_mix = None
        for i, layer in enumerate(self.layers):
            x, residual, post_mix, res_mix, pre_mix = layer(x, positions, input_ids, post_mix, res_mix, residual,
                                                            pre_mix, aux_out=self._tap(i, tokens))
        streams = self.layers[-1].hc_ffn.post(x, residual, post_mix, res_mix)
        tap = self._tap(len(self.layers), tokens)
        if tap is not None:  # after the last layer
            tap.copy_(streams.mean(-2))
        # V4.1's tail: the streams collapsed with the last FFN's pre weights (fp32 sum, one rounding).
        return self.norm(collapse_streams(streams, pre_mix))

    def _tap(self, layer_id: int, tokens: int):
        slot = self._tap_slot.get(layer_id)
        return None if slot is None else self.aux_stash[:tokens, slot]

    def aux_hidden_states(self) -> Tensor:
        """The persistent context taps [max_num_tokens, len(dspark_target_layer_ids) * D] bf16; rows [:T]
        hold the last forward's (the drafter's combine_hidden_states input)."""
        return self.aux_stash.flatten(1)

    def compute_logits(self, hidden_states: Tensor) -> Tensor:
        """Final hidden states [T, D] -> fp32 logits [T, vocab]."""
        return self.head(hidden_states).float()
