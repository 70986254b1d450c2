"""Loading DeepSeek-V4 checkpoints (shared/spec/ops.md §4.5) into a DeepseekV4Model, in place.

Names: embed.weight, head.weight, norm.weight, hc_head_fn|base|scale; per decoder layer
`layers.{L}.` and per MTP layer `mtp.{i}.`: hc_attn_fn|base|scale, hc_ffn_fn|base|scale,
attn_norm.weight, ffn_norm.weight, and the injected modules' own tensors under attn.* and ffn.*;
MTP layers also enorm.weight, hnorm.weight, e_proj.weight, h_proj.weight, norm.weight and
hc_head_fn|base|scale. Every tensor must match the model's shape and dtype exactly (mix weights
fp32, norms bf16). Loading copies into the existing tensors, so their addresses (captured by CUDA
graphs) do not change.
"""

from typing import Dict, List, Mapping

import torch
from torch import nn

from .decoder_layer import DecoderLayer
from .deepseek_v4 import DeepseekV4Model
from .hyper_connection import HCHead, HyperConnection

Tensor = torch.Tensor


class CheckpointError(ValueError):
    """Missing, mismatched or unexpected checkpoint tensors; the message lists every problem."""


def _hc(prefix: str, hc: HyperConnection) -> Dict[str, Tensor]:
    return {f"{prefix}_fn": hc.fn, f"{prefix}_base": hc.base, f"{prefix}_scale": hc.scale}


def _head(prefix: str, head: HCHead) -> Dict[str, Tensor]:
    return {f"{prefix}hc_head_fn": head.fn, f"{prefix}hc_head_base": head.base, f"{prefix}hc_head_scale": head.scale}


def _module(prefix: str, module: nn.Module) -> Dict[str, Tensor]:
    return {prefix + name: t for name, t in module.state_dict(keep_vars=True).items()}


def _decoder(prefix: str, layer: DecoderLayer) -> Dict[str, Tensor]:
    return {
        **_hc(f"{prefix}hc_attn", layer.hc_attn),
        **_hc(f"{prefix}hc_ffn", layer.hc_ffn),
        f"{prefix}attn_norm.weight": layer.attn_norm.weight,
        f"{prefix}ffn_norm.weight": layer.ffn_norm.weight,
        **_module(f"{prefix}attn.", layer.attn),
        **_module(f"{prefix}ffn.", layer.ffn),
    }


def checkpoint_tensors(model: DeepseekV4Model) -> Dict[str, Tensor]:
    """Checkpoint name -> the model tensor it fills (shape and dtype are what the file must hold)."""
    names = {"embed.weight": model.embed.weight, "head.weight": model.head.weight,
             "norm.weight": model.norm.weight, **_head("", model.hc_head)}
    for i, layer in enumerate(model.layers):
        names.update(_decoder(f"layers.{i}.", layer))
    for i, mtp in enumerate(model.mtp.layers if model.mtp is not None else []):
        p = f"mtp.{i}."
        names.update(_decoder(p, mtp.block))
        names.update(_head(p, mtp.hc_head))
        for part in ("enorm", "hnorm", "e_proj", "h_proj", "norm"):
            names[f"{p}{part}.weight"] = getattr(mtp, part).weight
    return names


def _describe(t: Tensor) -> str:
    return f"shape {tuple(t.shape)} {str(t.dtype).removeprefix('torch.')}"


def load_state(model: DeepseekV4Model, tensors: Mapping[str, Tensor], strict: bool = True) -> None:
    """Validates every tensor first, then copies them into the model. Raises CheckpointError listing
    each missing or mismatched tensor (expected and actual shape/dtype) and, when strict, each
    tensor the model does not use; nothing is copied then."""
    expected = checkpoint_tensors(model)
    problems: List[str] = []
    for name, target in expected.items():
        if name not in tensors:
            problems.append(f"missing tensor '{name}' (expected {_describe(target)})")
            continue
        got = tensors[name]
        if got.shape != target.shape or got.dtype != target.dtype:
            problems.append(f"tensor '{name}': expected {_describe(target)}, got {_describe(got)}")
    if strict:
        problems += [f"unexpected tensor '{name}' ({_describe(tensors[name])}): not used by the model"
                     for name in tensors if name not in expected]
    if problems:
        raise CheckpointError(f"checkpoint does not fit the model ({len(problems)} problems):\n  "
                              + "\n  ".join(problems))
    with torch.no_grad():
        for name, target in expected.items():
            target.copy_(tensors[name])


def load_safetensors(model: DeepseekV4Model, path: str, strict: bool = True) -> None:
    """load_state from a .safetensors file (needs the `safetensors` package)."""
    from safetensors.torch import load_file

    load_state(model, load_file(path), strict)
