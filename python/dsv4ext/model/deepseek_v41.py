"""DeepseekV41Model: the DeepSeek-V4.1 flow (docs/model.md): embedding, decoder layers whose mHC pre is
delayed (each sub-layer collapses its input with the previous sub-layer's pre weights, carried as
pre_mix), the last post, the collapse with the last FFN's pre weights, final norm and LM head."""

import torch
from torch import nn

from .. import ops
from .config import DeepseekV41Config
from .decoder_layer import DecoderLayerV41
from .deepseek_v4 import build_trunk
from .streams import SubLayerFactory

Tensor = torch.Tensor


class DeepseekV41Model(nn.Module):
    """The whole model on one pipeline rank, inference only, with DeepseekV4Model's constructor. No
    hc_head (V4.1 has none) and no MTP layers yet (`mtp` is None). Checkpoint names: V4's without
    `hc_head_*` (dsv4ext.model.checkpoint)."""

    hc_head = None

    def __init__(self, config: DeepseekV41Config, make_attn: SubLayerFactory, make_ffn: SubLayerFactory,
                 num_aux_streams: int = 3):
        super().__init__()
        build_trunk(self, config, DecoderLayerV41, make_attn, make_ffn, num_aux_streams)
        self.mtp = None
        self.requires_grad_(False)

    def forward(self, input_ids: Tensor, positions: Tensor) -> Tensor:
        """input_ids, positions [T] -> final hidden states [T, D] bf16. The first layer takes the
        embedding [T, D] itself (mhc_pre_delayed's broadcast entry)."""
        x = self.embed(input_ids)
        residual = post_mix = res_mix = pre_mix = None
        for layer in self.layers:
            x, residual, post_mix, res_mix, pre_mix = layer(x, positions, input_ids, post_mix, res_mix, residual,
                                                            pre_mix)
        streams = ops.mhc_post(x, residual, post_mix, res_mix)
        # V4.1's tail: the streams collapsed with the last FFN's pre weights (fp32 sum, one rounding).
        collapsed = (pre_mix.unsqueeze(-1) * streams.float()).sum(-2).to(torch.bfloat16)
        return self.norm(collapsed)

    def compute_logits(self, hidden_states: Tensor) -> Tensor:
        """Final hidden states [T, D] -> fp32 logits [T, vocab]."""
        return self.head(hidden_states).float()
