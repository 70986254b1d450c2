"""RMSNorm over the last dim, as a separate module (final norm, MTP enorm / hnorm / norm) or as a
weight and eps fused into an mHC pre (attention and FFN norms: DecoderLayer never calls those)."""

import torch
from torch import nn


class RMSNorm(nn.Module):
    """y = bf16(x * rsqrt(mean(x^2) + eps) * weight), in fp32 with one rounding; weight [dim] bf16."""

    def __init__(self, dim: int, eps: float):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim, dtype=torch.bfloat16), requires_grad=False)
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        y = xf * torch.rsqrt(xf.square().mean(-1, keepdim=True) + self.eps) * self.weight.float()
        return y.to(x.dtype)
