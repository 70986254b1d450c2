"""Model configuration: the DeepSeek-V4 config fields the model layer reads (shared/spec/ops.md §2.2)."""

from dataclasses import dataclass
from typing import Tuple

# Multiplier of the post sigmoid: a code constant of DeepSeek-V4 (DS `2 * sigmoid`), not a config field.
HC_POST_MULT = 2.0


@dataclass(frozen=True)
class DeepseekV4Config:
    """Sizes and scalars, named as in the DeepSeek-V4 config, plus the serving-side token capacity.

    The mHC scalars follow §4.2: rms_eps = rms_norm_eps, hc_pre_eps = hc_sinkhorn_eps = hc_eps,
    post mult HC_POST_MULT, sinkhorn repeat = hc_sinkhorn_iters. Every RMSNorm uses rms_norm_eps.
    """

    vocab_size: int
    hidden_size: int
    num_hidden_layers: int
    num_nextn_predict_layers: int = 1  # MTP layers
    hc_mult: int = 4  # n, the number of residual streams
    rms_norm_eps: float = 1e-6
    hc_eps: float = 1e-6
    hc_sinkhorn_iters: int = 20
    max_num_tokens: int = 8192  # rows of the persistent MTP stash (tokens per forward)

    def __post_init__(self):
        if self.num_hidden_layers < 1:
            raise ValueError(f"num_hidden_layers must be >= 1, got {self.num_hidden_layers}")
        if not 1 <= self.hc_mult <= 8:
            raise ValueError(f"hc_mult must be in [1, 8], got {self.hc_mult}")

    @property
    def hc_dim(self) -> int:
        """K = n * D: the flattened width of the n streams."""
        return self.hc_mult * self.hidden_size

    @property
    def hc_mix_rows(self) -> int:
        """M3 = n (n + 2): pre, post and comb rows of a sub-layer's fn."""
        return self.hc_mult * (self.hc_mult + 2)


@dataclass(frozen=True)
class DeepseekV41Config(DeepseekV4Config):
    """DeepSeek-V4.1: V4's fields; its mHC pre is delayed (docs/model.md) and it has no learned hc_head.
    Its MTP is vLLM's DSpark drafter (dsv4ext.model.mtp_v41): num_nextn_predict_layers stages (the
    checkpoint's mtp.{i}; 0: none), fed the mean of the target's streams at the input of each layer
    in dspark_target_layer_ids (1..num_hidden_layers; num_hidden_layers: after the last layer),
    with a Markov head of rank dspark_markov_rank and, when enable_confidence_head, a confidence head.
    Config names as in vLLM's DeepSeek-V4.1 (vllm/models/deepseek_v41/nvidia/dspark.py)."""

    num_nextn_predict_layers: int = 0
    dspark_target_layer_ids: Tuple[int, ...] = ()
    dspark_markov_rank: int = 0
    enable_confidence_head: bool = True

    def __post_init__(self):
        super().__post_init__()
        if self.num_nextn_predict_layers < 0:
            raise ValueError(f"num_nextn_predict_layers must be >= 0, got {self.num_nextn_predict_layers}")
        if self.num_nextn_predict_layers == 0:
            return
        ids = tuple(self.dspark_target_layer_ids)
        object.__setattr__(self, "dspark_target_layer_ids", ids)  # a list is accepted; kept as a tuple
        if not ids or len(set(ids)) != len(ids) or not all(1 <= i <= self.num_hidden_layers for i in ids):
            raise ValueError("dspark_target_layer_ids must be distinct layer ids in 1..num_hidden_layers="
                             f"{self.num_hidden_layers} (the MTP's context taps), got {ids}")
        if self.dspark_markov_rank < 1:
            raise ValueError(f"dspark_markov_rank must be >= 1 with MTP layers, got {self.dspark_markov_rank}")
