"""Small stand-in attention and FFN modules with the DecoderLayer calling conventions, for tests and
examples (per-token, no KV cache). Their checkpoint names are `attn.proj.weight`, `ffn.up.weight`
and `ffn.down.weight` under a layer's prefix."""

import torch
import torch.nn.functional as F
from torch import nn

Tensor = torch.Tensor


class ToyAttention(nn.Module):
    """silu(proj(h)) with a bf16 [D, D] projection; positions are accepted and unused."""

    def __init__(self, hidden_size: int):
        super().__init__()
        self.proj = nn.Linear(hidden_size, hidden_size, bias=False, dtype=torch.bfloat16)

    def forward(self, positions: Tensor, h: Tensor) -> Tensor:
        return F.silu(self.proj(h))


class ToyFFN(nn.Module):
    """down(silu(up(h))) with bf16 weights up [F, D], down [D, F]; input_ids are accepted and unused."""

    def __init__(self, hidden_size: int, intermediate_size: int):
        super().__init__()
        self.up = nn.Linear(hidden_size, intermediate_size, bias=False, dtype=torch.bfloat16)
        self.down = nn.Linear(intermediate_size, hidden_size, bias=False, dtype=torch.bfloat16)

    def forward(self, h: Tensor, input_ids: Tensor) -> Tensor:
        return self.down(F.silu(self.up(h)))
