"""Loading DeepSeek-V4 checkpoints (shared/spec/ops.md §4.5) into a DeepseekV4Model, in place, and
DeepSeek-V4.1 ones (the same names without hc_head_*) into a DeepseekV41Model.

DeepSeek-V4.1's MTP stages (the DSpark drafter, mtp_v41) are `mtp.{i}.` decoder blocks (hc_attn_*,
hc_ffn_*, attn_norm, ffn_norm, attn.*, ffn.*); stage 0 also holds main_proj.weight and
main_norm.weight, the last stage norm.weight, markov_head.embed.weight, markov_head.head.weight and
(when enabled) confidence_head.proj.weight, as vLLM's DSpark loader reads them
(vllm/models/deepseek_v41/nvidia/dspark.py, _remap_dspark_name). vLLM's own loader takes these
DeepSeek names; the vLLM naming here applies the §4.5 remap to them as to V4's.

DeepSeek names: embed.weight, head.weight, norm.weight, hc_head_fn|base|scale; per decoder layer
`layers.{L}.` and per MTP layer `mtp.{i}.`: hc_attn_fn|base|scale, hc_ffn_fn|base|scale,
attn_norm.weight, ffn_norm.weight, and the injected modules' own tensors under attn.* and ffn.*;
MTP layers also enorm.weight, hnorm.weight, e_proj.weight, h_proj.weight, norm.weight and
hc_head_fn|base|scale.

vLLM names (§4.5's remap, `vllm_name`): `model.` before embed.weight, norm.weight, hc_head_*
and `layers.{L}.`; `mtp.{i}.` becomes `model.layers.{num_hidden_layers + i}.`, with the MTP
layer's own norm.weight (and head.weight) under `shared_head.`; head.weight becomes
lm_head.weight.

The loader detects the naming from the names (all DeepSeek or all vLLM; a mix, or names that are
neither, are an error listing the first offending tensors). Every tensor must match the model's
shape and dtype exactly (mix weights fp32, norms bf16). Nothing is copied unless the whole
checkpoint fits; loading copies into the existing tensors, so their addresses (captured by CUDA
graphs) do not change.
"""

import re
from typing import Dict, List, Mapping

import torch
from torch import nn

from .decoder_layer import DecoderLayer
from .deepseek_v4 import DeepseekV4Model
from .hyper_connection import HCHead, HyperConnection
from .mtp_v41 import MTPLayerV41

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


NAMINGS = ("deepseek", "vllm")
_MTP = re.compile(r"mtp\.(\d+)\.(.*)")


def vllm_name(name: str, num_hidden_layers: int) -> str:
    """A DeepSeek checkpoint name in vLLM's naming (§4.5)."""
    if name == "head.weight":
        return "lm_head.weight"
    m = _MTP.fullmatch(name)
    if m is None:
        return "model." + name
    rest = m.group(2)
    if rest in ("norm.weight", "head.weight"):
        rest = "shared_head." + rest
    return f"model.layers.{num_hidden_layers + int(m.group(1))}.{rest}"


def checkpoint_tensors(model: DeepseekV4Model, naming: str = "deepseek") -> Dict[str, Tensor]:
    """Checkpoint name -> the model tensor it fills (shape and dtype are what the file must hold), in
    DeepSeek's naming or ("vllm") vLLM's."""
    if naming not in NAMINGS:
        raise ValueError(f"naming must be one of {NAMINGS}, got {naming!r}")
    names = _deepseek_tensors(model)
    if naming == "vllm":
        layers = model.config.num_hidden_layers
        names = {vllm_name(name, layers): t for name, t in names.items()}
    return names


def _deepseek_tensors(model: DeepseekV4Model) -> Dict[str, Tensor]:
    names = {"embed.weight": model.embed.weight, "head.weight": model.head.weight, "norm.weight": model.norm.weight}
    if model.hc_head is not None:  # DeepSeek-V4.1 has none
        names.update(_head("", model.hc_head))
    for i, layer in enumerate(model.layers):
        names.update(_decoder(f"layers.{i}.", layer))
    for i, mtp in enumerate(model.mtp.layers if model.mtp is not None else []):
        p = f"mtp.{i}."
        names.update(_decoder(p, mtp.block))
        if isinstance(mtp, MTPLayerV41):  # a DSpark stage: its block, plus stage 0's / the last stage's parts
            for part in ("main_proj", "main_norm", "norm", "markov_head", "confidence_head"):
                if getattr(mtp, part, None) is not None:
                    names.update(_module(f"{p}{part}.", getattr(mtp, part)))
            continue
        names.update(_head(p, mtp.hc_head))
        for part in ("enorm", "hnorm", "e_proj", "h_proj", "norm"):
            names[f"{p}{part}.weight"] = getattr(mtp, part).weight
    return names


def _describe(t: Tensor) -> str:
    return f"shape {tuple(t.shape)} {str(t.dtype).removeprefix('torch.')}"


def _first(names: List[str], most: int = 5) -> str:
    shown = ", ".join(f"'{n}'" for n in names[:most])
    return shown + (f" (and {len(names) - most} more)" if len(names) > most else "")


def detect_naming(model: DeepseekV4Model, names) -> str:
    """"deepseek" or "vllm" from a checkpoint's tensor names. Raises CheckpointError when the names mix
    both namings (listing the first names of the less used one) or match neither (listing the first
    names)."""
    names = list(names)
    known = {naming: set(checkpoint_tensors(model, naming)) for naming in NAMINGS}
    hits = {naming: [n for n in names if n in known[naming]] for naming in NAMINGS}
    if hits["deepseek"] and hits["vllm"]:
        major, minor = sorted(NAMINGS, key=lambda naming: -len(hits[naming]))
        raise CheckpointError(f"checkpoint mixes tensor naming schemes: {len(hits[major])} {major} names and "
                              f"{len(hits[minor])} {minor} names; first {minor} names: {_first(hits[minor])}")
    for naming in NAMINGS:
        if hits[naming]:
            return naming
    raise CheckpointError(f"checkpoint names are neither DeepSeek's nor vLLM's ({len(names)} tensors); first "
                          f"names: {_first(names)}")


def load_state(model: DeepseekV4Model, tensors: Mapping[str, Tensor], strict: bool = True,
               naming: str = "auto") -> None:
    """Validates every tensor first, then copies them into the model. `naming` is "deepseek", "vllm" or
    "auto" (detect_naming). Raises CheckpointError listing each missing or mismatched tensor
    (expected and actual shape/dtype) and, when strict, each tensor the model does not use; nothing
    is copied then. Names in messages are the checkpoint's own."""
    if naming == "auto":
        naming = detect_naming(model, tensors)
    expected = checkpoint_tensors(model, naming)
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


def load_safetensors(model: DeepseekV4Model, path: str, strict: bool = True, naming: str = "auto") -> None:
    """load_state from a .safetensors file in DeepSeek's or vLLM's naming (needs the `safetensors`
    package)."""
    from safetensors.torch import load_file

    load_state(model, load_file(path), strict, naming)
