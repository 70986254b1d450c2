"""Tiny DeepSeek-V4 model, synthetic checkpoint and the unfused reference flow shared by the
model-layer tests (shared/spec/ops.md §4).

The reference is the DS flow of §4.1 chained from dsv4ext.reference in float32 (op-like dtypes):
every sub-layer runs its own mhc_pre, a separate RMSNorm, the sub-layer and its own mhc_post;
nothing is fused or deferred. It calls the same injected attention/FFN modules as the model, and
never calls an RMSNorm module (so norm-call counting sees only the model).
"""

import math
from typing import Dict, List

import torch

from dsv4ext import reference as ref
from dsv4ext.model import (HC_POST_MULT, DecoderLayer, DeepseekV4Config, DeepseekV4Model, checkpoint_tensors,
                           load_state)
from dsv4ext.model.hyper_connection import HCHead, HyperConnection
from dsv4ext.model.mtp import MTPLayer
from dsv4ext.model.toy import ToyAttention, ToyFFN

CONFIG = DeepseekV4Config(vocab_size=97, hidden_size=256, num_hidden_layers=2, num_nextn_predict_layers=1,
                          hc_mult=4, max_num_tokens=32)
FFN_SIZE = 512
F32 = dict(compute_dtype=torch.float32)


def new_model(num_aux_streams: int = 3) -> DeepseekV4Model:
    """The tiny model; its factories hand the model's aux streams to the toy modules (ToyAttention
    runs half its projection on the first one for CUDA inputs)."""
    d = CONFIG.hidden_size
    return DeepseekV4Model(CONFIG, lambda i, streams: ToyAttention(d, streams),
                           lambda i, streams: ToyFFN(d, FFN_SIZE, streams), num_aux_streams=num_aux_streams)


def synthetic_checkpoint(model: DeepseekV4Model, seed: int = 0) -> Dict[str, torch.Tensor]:
    """Random tensors for every checkpoint name: fn ~ randn / sqrt(K) (mixes with O(1) spread), mix
    base and scale ~ 0.5 randn, norm weights 1 + 0.2 randn (so a norm applied twice shows),
    embedding randn, linear weights randn / sqrt(fan_in). The head biases pick different streams
    (the model's mostly stream 0, the MTP layer's mostly stream n - 1), so logits taken with the
    wrong hc_head are far off."""
    g = torch.Generator().manual_seed(seed)
    tensors = {}
    for name, target in checkpoint_tensors(model).items():
        r = torch.randn(target.shape, generator=g)
        if target.dtype == torch.float32:
            value = r / math.sqrt(target.shape[-1]) if name.endswith("_fn") else 0.5 * r
        elif name.endswith("norm.weight"):
            value = 1 + 0.2 * r
        elif name == "embed.weight":
            value = r
        else:
            value = r / math.sqrt(target.shape[-1])
        tensors[name] = value.to(target.dtype)
    n = CONFIG.hc_mult
    tensors["hc_head_base"] = torch.full((n,), -3.0).index_fill(0, torch.tensor([0]), 3.0)
    for i in range(CONFIG.num_nextn_predict_layers):
        tensors[f"mtp.{i}.hc_head_base"] = tensors["hc_head_base"].flip(0)
    return tensors


def load_synthetic(model):
    """Loads synthetic_checkpoint's tensors of the model's own names (a V4.1 model or one without MTP
    has fewer than CONFIG's) into the model; returns it."""
    names = checkpoint_tensors(model)
    load_state(model, {k: v for k, v in synthetic_checkpoint(model).items() if k in names})
    return model


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float = CONFIG.rms_norm_eps) -> torch.Tensor:
    xf = x.float()
    return (xf * torch.rsqrt(xf.square().mean(-1, keepdim=True) + eps) * weight.float()).to(torch.bfloat16)


def _pre(h: torch.Tensor, hc: HyperConnection, norm_weight=None):
    return ref.mhc_pre(h, hc.fn, hc.scale, hc.base, CONFIG.rms_norm_eps, CONFIG.hc_eps, CONFIG.hc_eps, HC_POST_MULT,
                       CONFIG.hc_sinkhorn_iters, norm_weight, CONFIG.rms_norm_eps, **F32)


def block(layer: DecoderLayer, h, positions, input_ids, fuse_norms: bool = False) -> torch.Tensor:
    """One DS Block on streams h [T, n, D] -> [T, n, D]. fuse_norms passes the norm weight to the
    reference mhc_pre (§3.5 rounding) instead of a separate RMSNorm of its bf16 output."""
    subs = ((layer.hc_attn, layer.attn_norm, lambda y: layer.attn(positions, y)),
            (layer.hc_ffn, layer.ffn_norm, lambda y: layer.ffn(y, input_ids)))
    for hc, norm, run in subs:
        if fuse_norms:
            post, comb, y = _pre(h, hc, norm.weight)
        else:
            post, comb, y = _pre(h, hc)
            y = rms_norm(y, norm.weight)
        h = ref.mhc_post(run(y), h, post, comb, **F32)
    return h


def model_streams(model: DeepseekV4Model, input_ids, positions, fuse_norms: bool = False) -> List[torch.Tensor]:
    """The streams [T, n, D] after each layer."""
    h = model.embed(input_ids).unsqueeze(-2).expand(-1, CONFIG.hc_mult, -1).contiguous()
    out = []
    for layer in model.layers:
        h = block(layer, h, positions, input_ids, fuse_norms)
        out.append(h)
    return out


def head_hidden(streams: torch.Tensor, hc_head: HCHead, norm_weight: torch.Tensor) -> torch.Tensor:
    """norm(hc_head(streams)) [T, D]."""
    y = ref.hc_head(streams, hc_head.fn, hc_head.scale, hc_head.base, CONFIG.rms_norm_eps, CONFIG.hc_eps, **F32)
    return rms_norm(y, norm_weight)


def mtp_streams(mtp: MTPLayer, input_ids, positions, previous: torch.Tensor) -> torch.Tensor:
    """§4.1 MTP Block: e = enorm(embed(ids)) (zero at position 0), x = hnorm(previous) per stream,
    h = e_proj(e) + h_proj(x), then a Block. Returns [T, n, D]."""
    e = mtp.embed(input_ids)
    e = rms_norm(torch.where((positions == 0).unsqueeze(-1), torch.zeros_like(e), e), mtp.enorm.weight)
    x = rms_norm(previous.unflatten(-1, (CONFIG.hc_mult, -1)), mtp.hnorm.weight)
    return block(mtp.block, mtp.h_proj(x) + mtp.e_proj(e).unsqueeze(-2), positions, input_ids)
