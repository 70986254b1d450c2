"""Small stand-in attention and FFN modules with the DecoderLayer calling conventions, for tests and
examples (per-token, no KV cache). Their checkpoint names are `attn.proj.weight`, `ffn.up.weight`
and `ffn.down.weight` under a layer's prefix. Both take the model's shared aux streams; ToyAttention
runs half of its projection on the first one (for CUDA inputs), as an engine's attention overlaps its
indexer or compressor."""

import torch
import torch.nn.functional as F
from torch import nn

from .streams import AuxStreams, fork, join

Tensor = torch.Tensor


class ToyAttention(nn.Module):
    """silu(proj(h)) with a bf16 [D, D] projection, computed as two halves of the output features:
    with an aux stream (and CUDA inputs) the second half runs there, joined back before the concat,
    so the result is bitwise that of the single-stream run. Positions are accepted and unused."""

    def __init__(self, hidden_size: int, aux_streams: AuxStreams = ()):
        super().__init__()
        self.proj = nn.Linear(hidden_size, hidden_size, bias=False, dtype=torch.bfloat16)
        self.aux_streams = aux_streams

    def forward(self, positions: Tensor, h: Tensor) -> Tensor:
        w = self.proj.weight
        half = w.shape[0] // 2
        lead, h = h.shape[:-1], h.reshape(-1, h.shape[-1])
        lo = torch.empty(h.shape[0], half, dtype=h.dtype, device=h.device)
        hi = torch.empty(h.shape[0], w.shape[0] - half, dtype=h.dtype, device=h.device)
        # Under torch.compile the single-stream form is traced (same result): stream switches are
        # eager / CUDA-graph work here.
        if self.aux_streams and h.is_cuda and not torch.compiler.is_compiling():
            aux = self.aux_streams[0]
            fork(aux)  # outputs allocated (and h produced) on the main stream before aux reads them
            with torch.cuda.stream(aux):
                torch.mm(h, w[half:].t(), out=hi)
            torch.mm(h, w[:half].t(), out=lo)
            join(aux)
        else:
            torch.mm(h, w[half:].t(), out=hi)
            torch.mm(h, w[:half].t(), out=lo)
        return F.silu(torch.cat([lo, hi], -1)).reshape(*lead, w.shape[0])


class ToyFFN(nn.Module):
    """down(silu(up(h))) with bf16 weights up [F, D], down [D, F]; input_ids are accepted and unused.
    Keeps the aux streams it is given (unused)."""

    def __init__(self, hidden_size: int, intermediate_size: int, aux_streams: AuxStreams = ()):
        super().__init__()
        self.up = nn.Linear(hidden_size, intermediate_size, bias=False, dtype=torch.bfloat16)
        self.down = nn.Linear(intermediate_size, hidden_size, bias=False, dtype=torch.bfloat16)
        self.aux_streams = aux_streams

    def forward(self, h: Tensor, input_ids: Tensor) -> Tensor:
        return self.down(F.silu(self.up(h)))
