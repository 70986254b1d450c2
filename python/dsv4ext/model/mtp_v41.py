"""DeepSeek-V4.1's multi-token prediction as vLLM serves it: the DSpark drafter
(vllm/models/deepseek_v41/nvidia/dspark.py; its Markov and confidence heads from
vllm/model_executor/models/qwen3_dspark.py; docs/model.md).

The drafter drafts a block of tokens in one pass. Its stages are V4.1 decoder blocks (checkpoint
`mtp.{i}.`, i = 0 .. num_nextn_predict_layers - 1) run in sequence on the draft tokens' embedding
copied to n streams with no carried pre weights (the identity entry), their seams fused, then the last
post and the collapse with the last FFN's pre weights (V4.1's tail). The target's context reaches it
through attention: the mean of the target's streams at the input of each layer in
dspark_target_layer_ids (DeepseekV41Model.aux_hidden_states()) goes through main_proj and main_norm
(stage 0's) into every stage's attention as context KV. Logits: the shared LM head on norm(hidden) (the
last stage's norm); a low-rank Markov head adds a previous-token bias and a confidence head scores each
drafted position. Embedding and LM head are the target's, passed in, never copied."""

from typing import List

import torch
from torch import nn

from .config import DeepseekV41Config
from .decoder_layer import DecoderLayerV41
from .hyper_connection import collapse_streams
from .norm import RMSNorm
from .streams import AuxStreams, SubLayerFactory

Tensor = torch.Tensor


class DSparkMarkovHead(nn.Module):
    """Low-rank transition bias: embed [vocab, r] (the previous token's r-vector) and head [vocab, r]
    (its bias over the vocabulary), bf16. Checkpoint names `markov_head.embed.weight`,
    `markov_head.head.weight` (vLLM's markov_w1, markov_w2)."""

    def __init__(self, vocab_size: int, rank: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, rank, dtype=torch.bfloat16)
        self.head = nn.Linear(rank, vocab_size, bias=False, dtype=torch.bfloat16)


class DSparkConfidenceHead(nn.Module):
    """Per-position acceptance score: proj [1, D + r] fp32 (no bias) on [hidden, markov embedding]
    (`confidence_head.proj.weight`)."""

    def __init__(self, input_dim: int):
        super().__init__()
        self.proj = nn.Linear(input_dim, 1, bias=False, dtype=torch.float32)

    def forward(self, hidden: Tensor, markov_embed: Tensor) -> Tensor:
        return self.proj(torch.cat([hidden, markov_embed], dim=-1).float()).squeeze(-1)


class MTPLayerV41(nn.Module):
    """One stage of DeepSeek-V4.1's MTP (the DSpark drafter): a V4.1 decoder block with the weights of
    checkpoint `mtp.{i}.`, i = layer_index - num_hidden_layers. Stage 0 also owns the context combiner
    (`main_proj`, `main_norm`), the last stage the head stack (`norm`, `markov_head`, and
    `confidence_head` when the config enables it), as the checkpoint stores them.
    """

    def __init__(self, config: DeepseekV41Config, layer_index: int, make_attn: SubLayerFactory,
                 make_ffn: SubLayerFactory, aux_streams: AuxStreams = (), *, embed: nn.Embedding,
                 head: nn.Linear):
        """The same first five arguments as DecoderLayer and the V4 MTPLayer (its block is built from
        them, with the model's aux_streams list: it never creates streams); embed and head are the
        model's."""
        super().__init__()
        stages, d = config.num_nextn_predict_layers, config.hidden_size
        self.stage = layer_index - config.num_hidden_layers
        if not 0 <= self.stage < stages:
            raise ValueError(f"MTPLayerV41: layer_index must be in num_hidden_layers + [0, {stages}) = "
                             f"[{config.num_hidden_layers}, {config.num_hidden_layers + stages}), got {layer_index}")
        self.aux_streams = aux_streams
        self.block = DecoderLayerV41(config, layer_index, make_attn, make_ffn, aux_streams)
        if self.stage == 0:
            self.main_proj = nn.Linear(d * len(config.dspark_target_layer_ids), d, bias=False, dtype=torch.bfloat16)
            self.main_norm = RMSNorm(d, config.rms_norm_eps)
        if self.stage == stages - 1:
            self.norm = RMSNorm(d, config.rms_norm_eps)
            self.markov_head = DSparkMarkovHead(config.vocab_size, config.dspark_markov_rank)
            self.confidence_head = (DSparkConfidenceHead(d + config.dspark_markov_rank)
                                    if config.enable_confidence_head else None)
        self.embed = embed  # shared with the model
        self.head = head  # shared with the model

    def forward(self, x: Tensor, positions: Tensor, input_ids: Tensor, post_mix=None, res_mix=None, residual=None,
                pre_mix=None):
        """The block: DecoderLayerV41.forward."""
        return self.block(x, positions, input_ids, post_mix, res_mix, residual, pre_mix)


class DSparkDrafter(nn.Module):
    """DeepSeek-V4.1's MTP: the stages (MTPLayerV41) and vLLM's drafter hooks (combine_hidden_states,
    precompute_and_store_context_kv, forward, compute_logits, markov_embed, markov_bias,
    compute_confidence)."""

    def __init__(self, layers: List[MTPLayerV41]):
        super().__init__()
        if not layers or [layer.stage for layer in layers] != list(range(len(layers))):
            raise ValueError(f"DSparkDrafter needs MTPLayerV41 stages 0, 1, ..., got {[l.stage for l in layers]}")
        self.layers = nn.ModuleList(layers)

    @property
    def first(self) -> MTPLayerV41:
        return self.layers[0]

    @property
    def last(self) -> MTPLayerV41:
        return self.layers[-1]

    def combine_hidden_states(self, aux_hidden_states: Tensor) -> Tensor:
        """The target's taps [T, D * len(dspark_target_layer_ids)] -> the context main_norm(main_proj(.))
        [T, D] bf16."""
        return self.first.main_norm(self.first.main_proj(aux_hidden_states))

    def precompute_and_store_context_kv(self, context_states: Tensor, context_positions: Tensor) -> None:
        """Hands the same context [T_ctx, D] (combine_hidden_states) and its positions to every stage's
        attention, as vLLM's drafter inserts each draft layer's context KV into its cache: the injected
        attention's `store_context_kv(context_states, context_positions)`, where it has one (a module
        without a KV cache has nothing to store)."""
        for layer in self.layers:
            store = getattr(layer.block.attn, "store_context_kv", None)
            if store is not None:
                store(context_states, context_positions)

    def forward(self, input_ids: Tensor, positions: Tensor, inputs_embeds=None) -> Tensor:
        """Draft tokens [T] -> the pre-norm head hidden [T, D] bf16: the embedding copied to n streams,
        the stages (first: stream 0 as its input, the identity entry; seams fused), the last post and the
        collapse with the last FFN's pre weights."""
        e = self.first.embed(input_ids) if inputs_embeds is None else inputs_embeds
        x = e.unsqueeze(-2).expand(-1, self.first.block.hc_attn.hc_mult, -1).contiguous()
        residual = post_mix = res_mix = pre_mix = None
        for layer in self.layers:
            x, residual, post_mix, res_mix, pre_mix = layer(x, positions, input_ids, post_mix, res_mix, residual,
                                                            pre_mix)
        streams = self.last.block.hc_ffn.post(x, residual, post_mix, res_mix)
        return collapse_streams(streams, pre_mix)

    def compute_logits(self, hidden_states: Tensor) -> Tensor:
        """The base draft logits [T, vocab] fp32: the shared LM head on the last stage's norm."""
        return self.last.head(self.last.norm(hidden_states)).float()

    def markov_embed(self, token_ids: Tensor) -> Tensor:
        """The Markov head's r-vector of each previous token [B] -> [B, r] bf16."""
        return self.last.markov_head.embed(token_ids)

    def markov_bias(self, markov_embed: Tensor) -> Tensor:
        """[B, r] -> the transition bias [B, vocab] fp32, added to the base logits."""
        return self.last.markov_head.head(markov_embed).float()

    def compute_confidence(self, head_hidden: Tensor, markov_embed: Tensor) -> Tensor:
        """Acceptance probability of each drafted position [T] (needs the confidence head)."""
        if self.last.confidence_head is None:
            raise ValueError("DSparkDrafter.compute_confidence: the config disables the confidence head "
                             "(enable_confidence_head=False)")
        return torch.sigmoid(self.last.confidence_head(head_hidden, markov_embed))
