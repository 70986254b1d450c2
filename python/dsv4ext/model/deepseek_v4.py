"""DeepseekV4Model: embedding, n residual streams, decoder layers, last deferred post, hc_head, final
norm and LM head, plus the MTP layers and their persistent input stash (shared/spec/ops.md §4.3)."""

import torch
from torch import nn

from .config import DeepseekV4Config
from .decoder_layer import DecoderLayer
from .hyper_connection import HCHead
from .mtp import MTPLayer, MultiTokenPredictor
from .norm import RMSNorm
from .streams import SubLayerFactory, create_aux_streams

Tensor = torch.Tensor


def build_trunk(model: nn.Module, config: DeepseekV4Config, layer_class, make_attn: SubLayerFactory,
                make_ffn: SubLayerFactory, num_aux_streams: int) -> None:
    """The parts V4 and V4.1 share, set on `model`: config, aux_streams (created once), embed, the
    decoder layers (`layer_class`), the final norm and the LM head."""
    d = config.hidden_size
    model.config = config
    model.aux_streams = create_aux_streams(num_aux_streams)
    model.embed = nn.Embedding(config.vocab_size, d, dtype=torch.bfloat16)
    model.layers = nn.ModuleList(layer_class(config, i, make_attn, make_ffn, model.aux_streams)
                                 for i in range(config.num_hidden_layers))
    model.norm = RMSNorm(d, config.rms_norm_eps)
    model.head = nn.Linear(d, config.vocab_size, bias=False, dtype=torch.bfloat16)


class DeepseekV4Model(nn.Module):
    """The whole model on one pipeline rank, inference only (no parameter requires grad).

    Shared resources are created here once and handed down: the embedding and LM head to the MTP
    layers, and `aux_streams` (num_aux_streams CUDA streams; none without a GPU or when 0) as the
    same list to every decoder layer, every MTP layer and, through them, to the factories:
    `make_attn(layer_index, aux_streams)`, `make_ffn(layer_index, aux_streams)` (one-argument
    factories `make_attn(layer_index)` are accepted too; MTP layer i gets index
    num_hidden_layers + i). Checkpoint names: DeepSeek's or vLLM's (dsv4ext.model.checkpoint).
    """

    def __init__(self, config: DeepseekV4Config, make_attn: SubLayerFactory, make_ffn: SubLayerFactory,
                 num_aux_streams: int = 3):
        super().__init__()
        build_trunk(self, config, DecoderLayer, make_attn, make_ffn, num_aux_streams)
        self.hc_head = HCHead(config)
        mtp_ids = range(config.num_hidden_layers, config.num_hidden_layers + config.num_nextn_predict_layers)
        mtp_layers = [MTPLayer(config, i, make_attn, make_ffn, self.aux_streams, embed=self.embed, head=self.head)
                      for i in mtp_ids]
        self.mtp = MultiTokenPredictor(mtp_layers) if mtp_layers else None
        # Stable address for CUDA graphs: forward writes its last streams here for the MTP layers.
        self.register_buffer("mtp_stash", torch.zeros(config.max_num_tokens, config.hc_dim, dtype=torch.bfloat16),
                             persistent=False)
        self.requires_grad_(False)

    def forward(self, input_ids: Tensor, positions: Tensor) -> Tensor:
        """input_ids, positions [T] -> final hidden states [T, D] bf16. The last deferred post, hc_head
        and the final norm run as one op (mhc_post_hc_head), which also writes the last streams
        [T, n*D] into mtp_hidden_states()[:T]."""
        tokens = input_ids.shape[0]
        if tokens > self.mtp_stash.shape[0]:
            raise ValueError(f"DeepseekV4Model: {tokens} tokens exceed max_num_tokens = {self.mtp_stash.shape[0]}")
        n = self.config.hc_mult
        x = self.embed(input_ids).unsqueeze(-2).expand(-1, n, -1).contiguous()
        residual = post_mix = res_mix = None
        for layer in self.layers:
            x, residual, post_mix, res_mix = layer(x, positions, input_ids, post_mix, res_mix, residual)
        stash = self.mtp_stash[:tokens].unflatten(-1, (n, -1))
        return self.hc_head.post_head(x, residual, post_mix, res_mix, self.norm, streams_out=stash)

    def compute_logits(self, hidden_states: Tensor) -> Tensor:
        """Final hidden states [T, D] -> fp32 logits [T, vocab]."""
        return self.head(hidden_states).float()

    def mtp_hidden_states(self) -> Tensor:
        """The persistent MTP stash [max_num_tokens, n*D] bf16; rows [:T] hold the last forward's streams."""
        return self.mtp_stash
