"""Model configuration: the DeepSeek-V4 config fields the model layer reads (shared/spec/ops.md §2.2)."""

from dataclasses import dataclass

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
    """DeepSeek-V4.1: the same fields; its mHC pre is delayed (docs/model.md) and it has no learned
    hc_head. The model layer has no V4.1 MTP yet, so num_nextn_predict_layers must be 0."""

    num_nextn_predict_layers: int = 0

    def __post_init__(self):
        super().__post_init__()
        if self.num_nextn_predict_layers != 0:
            raise NotImplementedError("DeepseekV41Config: the V4.1 MTP layers are not implemented; "
                                      f"num_nextn_predict_layers must be 0, got {self.num_nextn_predict_layers}")
