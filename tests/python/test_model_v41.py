"""DeepSeek-V4.1 model layer (docs/model.md): the tiny model of model_cases with V4.1's delayed mHC pre
against the unfused V4.1 flow chained from dsv4ext.reference (every sub-layer: the delayed pre on the
full streams with the carried pre weights, a separate RMSNorm or the fused one, the sub-layer, its own
post; the tail: the last post, the collapse with the last FFN's pre weights, the final norm). The
first layer's broadcast entry (x with fn summed over its column blocks) is checked against the
reference's pre on the n copies with the full fn. Also: checkpoint names (V4's without hc_head_*,
both namings), the decoder-layer contract, and the seams as one fused op. The MTP: test_model_v41_mtp.py."""

import inspect

import pytest
import torch

from dsv4ext import ops
from dsv4ext import reference as ref
from dsv4ext.model import (DecoderLayer, DecoderLayerV41, DeepseekV41Config, DeepseekV41Model, HC_POST_MULT,
                           checkpoint_tensors, load_state)
from dsv4ext.model.toy import ToyAttention, ToyFFN
from mhc_cases import assert_same
from model_cases import CONFIG, F32, FFN_SIZE, load_synthetic, rms_norm
from test_model import TOL_DS_FLOW, TOL_FUSED_NORM_FLOW, assert_within, inputs

V41 = DeepseekV41Config(vocab_size=CONFIG.vocab_size, hidden_size=CONFIG.hidden_size,
                        num_hidden_layers=CONFIG.num_hidden_layers, hc_mult=CONFIG.hc_mult)


def new_model() -> DeepseekV41Model:
    d = V41.hidden_size
    return DeepseekV41Model(V41, lambda i, s: ToyAttention(d, s), lambda i, s: ToyFFN(d, FFN_SIZE, s))


@pytest.fixture(scope="module")
def loaded():
    return load_synthetic(new_model())


def reference_flow(blocks, h: torch.Tensor, ids, pos, fuse_norms: bool):
    """The unfused V4.1 flow over decoder blocks from streams h [T, n, D] with no carried pre weights (the
    first pre on the n streams with the full fn): every sub-layer's delayed pre (a separate RMSNorm or the
    fused one), the sub-layer, its own post. Returns (the last streams, the last FFN's pre weights, the
    streams entering each block)."""
    pre_mix, entering = None, []
    for layer in blocks:
        entering.append(h)
        subs = ((layer.hc_attn, layer.attn_norm, lambda y: layer.attn(pos, y)),
                (layer.hc_ffn, layer.ffn_norm, lambda y: layer.ffn(y, ids)))
        for hc, norm, run in subs:
            w = norm.weight if fuse_norms else None
            post, comb, y, pre_mix = ref.mhc_pre_delayed(h, hc.fn, hc.scale, hc.base, V41.rms_norm_eps, V41.hc_eps,
                                                         V41.hc_eps, HC_POST_MULT, V41.hc_sinkhorn_iters, pre_mix,
                                                         None, w, V41.rms_norm_eps, **F32)
            h = ref.mhc_post(run(y if fuse_norms else rms_norm(y, norm.weight)), h, post, comb, **F32)
    return h, pre_mix, entering


def collapse(h: torch.Tensor, pre_mix: torch.Tensor) -> torch.Tensor:
    return (pre_mix.unsqueeze(-1) * h.float()).sum(-2).to(torch.bfloat16)


def reference_hidden(model: DeepseekV41Model, ids, pos, fuse_norms: bool) -> torch.Tensor:
    h = model.embed(ids).unsqueeze(-2).expand(-1, V41.hc_mult, -1).contiguous()
    h, pre_mix, _ = reference_flow(model.layers, h, ids, pos, fuse_norms)
    return rms_norm(collapse(h, pre_mix), model.norm.weight)


def test_forward_matches_unfused_v41_flow(loaded, device):
    model = loaded.to(device)
    ids, pos = inputs(device)
    hidden = model(ids, pos)
    assert hidden.shape == (ids.shape[0], V41.hidden_size) and hidden.dtype == torch.bfloat16
    for fuse_norms, tol in ((False, TOL_DS_FLOW), (True, TOL_FUSED_NORM_FLOW)):
        want = reference_hidden(model, ids, pos, fuse_norms)
        flow = "fused-norm flow" if fuse_norms else "V4.1 flow"
        assert_within(hidden, want, tol, f"{flow}, final hidden")
        assert_within(model.compute_logits(hidden), model.head(want).float(), tol, f"{flow}, logits")
    loaded.to("cpu")


def unfused_layer(layer: DecoderLayerV41, x, pos, ids, post, comb, residual, pre_mix):
    """A later V4.1 layer with each seam as two ops: the post, then the next sub-layer's delayed pre."""
    residual = layer.hc_attn.post(x, residual, post, comb)
    post, comb, h, attn_pre = layer.hc_attn.pre_delayed(residual, pre_mix, None, layer.attn_norm.weight,
                                                        layer.attn_norm.eps)
    residual = layer.hc_ffn.post(layer.attn(pos, h), residual, post, comb)
    post, comb, h, ffn_pre = layer.hc_ffn.pre_delayed(residual, attn_pre, None, layer.ffn_norm.weight,
                                                      layer.ffn_norm.eps)
    return layer.ffn(h, ids), residual, post, comb, ffn_pre


def test_seams_run_as_one_fused_op(loaded, monkeypatch):
    """Both seams of a later layer are one mhc_fused_post_pre_delayed each, bitwise the unfused pair on
    the CPU (the op's contract)."""
    ids, pos = inputs("cpu")
    x, residual, post, comb, pre = loaded.layers[0](loaded.embed(ids), pos, ids)
    calls = []
    fused_op = ops.mhc_fused_post_pre_delayed
    monkeypatch.setattr(ops, "mhc_fused_post_pre_delayed", lambda *a: calls.append(1) or fused_op(*a))
    got = loaded.layers[1](x, pos, ids, post, comb, residual, pre)
    assert len(calls) == 2
    assert_same(got, unfused_layer(loaded.layers[1], x, pos, ids, post, comb, residual, pre))


def test_pre_mix_is_carried(loaded):
    """Each sub-layer collapses with the previous one's pre weights: a layer fed another pre_mix gives
    another output, and the first layer's output (broadcast entry, stream 0) ignores it."""
    ids, pos = inputs("cpu")
    x, residual, post, comb, pre = loaded.layers[0](loaded.embed(ids), pos, ids)
    assert pre.shape == (ids.shape[0], V41.hc_mult) and pre.dtype == torch.float32
    out = loaded.layers[1](x, pos, ids, post, comb, residual, pre)
    other = loaded.layers[1](x, pos, ids, post, comb, residual, pre.flip(-1).contiguous())
    assert not torch.equal(out[0], other[0])


def test_checkpoint_names_are_v4_without_hc_head(loaded):
    names = set(checkpoint_tensors(loaded))
    assert not any("hc_head" in k or k.startswith("mtp.") for k in names)
    assert {"embed.weight", "head.weight", "norm.weight", "layers.1.hc_ffn_fn", "layers.0.attn.proj.weight"} <= names
    vllm_names = checkpoint_tensors(loaded, "vllm")
    assert "model.layers.1.hc_attn_fn" in vllm_names and "lm_head.weight" in vllm_names
    model = new_model()
    load_state(model, {k: t.clone() for k, t in vllm_names.items()})  # vLLM naming, detected
    for name, t in checkpoint_tensors(model).items():
        assert torch.equal(t, checkpoint_tensors(loaded)[name]), name


def test_decoder_layer_contract(loaded):
    """V4's forward signature plus pre_mix last (and the keyword-only MTP tap aux_out); a later layer
    needs the whole carried state."""
    v4 = list(inspect.signature(DecoderLayer.forward).parameters)
    params = inspect.signature(DecoderLayerV41.forward).parameters
    assert list(params) == v4 + ["pre_mix", "aux_out"]
    assert params["aux_out"].kind == inspect.Parameter.KEYWORD_ONLY
    ids, pos = inputs("cpu")
    x, residual, post, comb, _ = loaded.layers[0](loaded.embed(ids), pos, ids)
    with pytest.raises(ValueError, match="without post_mix, res_mix and pre_mix"):
        loaded.layers[1](x, pos, ids, post, comb, residual)
