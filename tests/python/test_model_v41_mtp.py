"""DeepSeek-V4.1's MTP, the DSpark drafter of vLLM (dsv4ext.model.mtp_v41, docs/model.md): a tiny
DeepseekV41Model with 3 stages, loaded from a synthetic checkpoint in either naming. The target's context
taps against the unfused V4.1 flow (and bitwise against the streams its own layers produce); the drafter's
hidden and logits against the unfused V4.1 flow of its stages from the draft tokens' embedding copies (no
carried pre weights), through its own norm; the context combiner, the context hook, the Markov and
confidence heads against plain torch; the constructor / stream contract shared with the V4 MTP layer;
config and stage validation; and (GPU) a draft step replayed from a CUDA graph equal to eager."""

import inspect

import pytest
import torch
import torch.nn.functional as F

from dsv4ext import ops
from dsv4ext.model import (DecoderLayer, DeepseekV41Config, DeepseekV41Model, DSparkDrafter, MTPLayer, MTPLayerV41,
                           checkpoint_tensors, load_state)
from dsv4ext.model.toy import ToyAttention, ToyFFN
from mhc_cases import assert_same
from model_cases import FFN_SIZE, load_synthetic, rms_norm
from test_model import TOL_DS_FLOW, TOL_FUSED_NORM_FLOW, assert_within, inputs
from test_model_v41 import collapse, reference_flow

D, LAYERS, STAGES, RANK = 256, 3, 3, 16
TAPS = (3, 1)  # after the last layer, and at the input of layer 1: in the config's order, not sorted
CFG = DeepseekV41Config(vocab_size=97, hidden_size=D, num_hidden_layers=LAYERS, num_nextn_predict_layers=STAGES,
                        dspark_target_layer_ids=TAPS, dspark_markov_rank=RANK, max_num_tokens=32)


class ContextAttention(ToyAttention):
    """ToyAttention that records the context it is handed (an engine's attention inserts it as KV)."""

    def store_context_kv(self, context_states, context_positions):
        self.stored = (context_states, context_positions)


def new_model(config=CFG, num_aux_streams=3) -> DeepseekV41Model:
    return DeepseekV41Model(config, lambda i, s: ContextAttention(D, s), lambda i, s: ToyFFN(D, FFN_SIZE, s),
                            num_aux_streams=num_aux_streams)


@pytest.fixture(scope="module")
def loaded():
    return load_synthetic(new_model())


def test_checkpoint_names_both_namings(loaded):
    names = set(checkpoint_tensors(loaded))
    mtp = {k for k in names if k.startswith("mtp.")}
    extras = {k for k in mtp if not any(p in k for p in ("hc_attn", "hc_ffn", "attn", "ffn"))}
    assert extras == {"mtp.0.main_proj.weight", "mtp.0.main_norm.weight", "mtp.2.norm.weight",
                      "mtp.2.markov_head.embed.weight", "mtp.2.markov_head.head.weight",
                      "mtp.2.confidence_head.proj.weight"}
    assert all(f"mtp.{i}.hc_ffn_fn" in names for i in range(STAGES)) and not any("hc_head" in k for k in names)
    shapes = checkpoint_tensors(loaded)
    assert shapes["mtp.0.main_proj.weight"].shape == (D, D * len(TAPS))
    assert shapes["mtp.2.confidence_head.proj.weight"].dtype == torch.float32
    vllm_names = checkpoint_tensors(loaded, "vllm")
    assert "model.layers.5.shared_head.norm.weight" in vllm_names and "model.layers.3.main_proj.weight" in vllm_names
    model = new_model()
    load_state(model, {k: t.clone() for k, t in vllm_names.items()})  # vLLM naming, detected
    for name, t in checkpoint_tensors(model).items():
        assert torch.equal(t, shapes[name]), name


def test_constructor_and_streams_match_the_v4_mtp_layer(loaded):
    """MTPLayerV41 takes the V4 MTP layer's arguments (DecoderLayer's five, then embed and head keyword-only);
    every stage and its block share the model's aux stream list, embedding and LM head."""
    v4 = [(p.name, p.kind, p.default) for p in inspect.signature(MTPLayer.__init__).parameters.values()]
    v41 = [(p.name, p.kind, p.default) for p in inspect.signature(MTPLayerV41.__init__).parameters.values()]
    assert v41 == v4
    assert [p[0] for p in v41[:6]] == list(inspect.signature(DecoderLayer.__init__).parameters)
    for i, stage in enumerate(loaded.mtp.layers):
        assert stage.stage == i and stage.block.layer_index == LAYERS + i
        assert stage.aux_streams is loaded.aux_streams and stage.block.aux_streams is loaded.aux_streams
        assert stage.embed is loaded.embed and stage.head is loaded.head


def target_taps(model, ids, pos):
    """The taps from the model's own layers: the mean of the streams entering layer L (mhc_post of
    layer L - 1's deferred state) or, for L = num_hidden_layers, after the last post."""
    x, state, taps = model.embed(ids), (None, None, None, None), {}
    for i, layer in enumerate(model.layers):
        x, residual, post, comb, pre = layer(x, pos, ids, *state[1:3], state[0], state[3])
        state = (residual, post, comb, pre)
        taps[i + 1] = ops.mhc_post(x, residual, post, comb).mean(-2)
    return torch.cat([taps[t] for t in TAPS], -1)


def test_target_writes_the_context_taps(loaded, device):
    model = loaded.to(device)
    ids, pos = inputs(device)
    model.aux_stash.fill_(float("nan"))
    model(ids, pos)
    got = model.aux_hidden_states()[:ids.shape[0]]
    assert got.shape == (ids.shape[0], D * len(TAPS)) and got.dtype == torch.bfloat16
    assert_same(got, target_taps(model, ids, pos))  # the layers' own streams (the seams' residual_out)
    assert bool(model.aux_hidden_states()[ids.shape[0]:].isnan().all()), "wrote past the first T rows"
    h = model.embed(ids).unsqueeze(-2).expand(-1, CFG.hc_mult, -1).contiguous()
    last, _, entering = reference_flow(model.layers, h, ids, pos, fuse_norms=False)
    entering.append(last)
    want = torch.cat([entering[t].float().mean(-2) for t in TAPS], -1)
    assert_within(got, want, TOL_DS_FLOW, "context taps vs the V4.1 flow")
    loaded.to("cpu")


def test_drafter_matches_unfused_v41_flow(loaded, device):
    """The drafter on the draft tokens: its stages from the embedding copied to n streams with no carried
    pre weights, the collapse tail (pre-norm hidden), logits through the last stage's norm (weights
    1 + 0.2 randn: the target's norm instead is far off)."""
    model = loaded.to(device)
    ids, pos = inputs(device)
    hidden = model.mtp(ids, pos)
    assert hidden.shape == (ids.shape[0], D) and hidden.dtype == torch.bfloat16
    h = model.embed(ids).unsqueeze(-2).expand(-1, CFG.hc_mult, -1).contiguous()
    blocks = [stage.block for stage in model.mtp.layers]
    for fuse_norms, tol in ((False, TOL_DS_FLOW), (True, TOL_FUSED_NORM_FLOW)):
        last, pre_mix, _ = reference_flow(blocks, h, ids, pos, fuse_norms)
        want = collapse(last, pre_mix)
        flow = "fused-norm flow" if fuse_norms else "V4.1 flow"
        assert_within(hidden, want, tol, f"drafter hidden, {flow}")
        want_logits = model.head(rms_norm(want, model.mtp.last.norm.weight)).float()
        assert_within(model.mtp.compute_logits(hidden), want_logits, tol, f"drafter logits, {flow}")
    wrong = model.head(rms_norm(hidden, model.norm.weight)).float()
    with pytest.raises(AssertionError):
        assert_within(model.mtp.compute_logits(hidden), wrong, TOL_DS_FLOW, "logits through the target's norm")
    loaded.to("cpu")


def test_context_and_heads(loaded):
    ids, pos, model = *inputs("cpu"), loaded
    model(ids, pos)
    aux = model.aux_hidden_states()[:ids.shape[0]]
    ctx = model.mtp.combine_hidden_states(aux)
    first = model.mtp.first
    assert_same(ctx, rms_norm(F.linear(aux, first.main_proj.weight), first.main_norm.weight))
    model.mtp.precompute_and_store_context_kv(ctx, pos)
    for stage in model.mtp.layers:
        assert stage.block.attn.stored[0] is ctx and stage.block.attn.stored[1] is pos
    hidden = model.mtp(ids, pos)
    last = model.mtp.last
    emb = model.mtp.markov_embed(ids)
    assert_same(emb, last.markov_head.embed.weight[ids])
    assert_same(model.mtp.markov_bias(emb), F.linear(emb, last.markov_head.head.weight).float())
    conf = model.mtp.compute_confidence(hidden, emb)
    want = torch.sigmoid(torch.cat([hidden, emb], -1).float() @ last.confidence_head.proj.weight[0])
    assert conf.shape == (ids.shape[0],) and torch.allclose(conf, want, rtol=1e-6, atol=1e-7)
    assert 0 <= float(conf.min()) and float(conf.max()) <= 1


def test_no_confidence_head():
    model = new_model(DeepseekV41Config(**{**CFG.__dict__, "enable_confidence_head": False}))
    assert model.mtp.last.confidence_head is None
    assert not any("confidence_head" in k for k in checkpoint_tensors(model))
    with pytest.raises(ValueError, match="enable_confidence_head=False"):
        model.mtp.compute_confidence(torch.zeros(1, D, dtype=torch.bfloat16),
                                     torch.zeros(1, RANK, dtype=torch.bfloat16))


@pytest.mark.parametrize("fields,message", [
    (dict(dspark_target_layer_ids=()), r"dspark_target_layer_ids must be distinct layer ids in "
                                       r"1..num_hidden_layers=3 \(the MTP's context taps\), got \(\)"),
    (dict(dspark_target_layer_ids=(0, 2)), r"got \(0, 2\)"),
    (dict(dspark_target_layer_ids=(4,)), r"got \(4,\)"),
    (dict(dspark_target_layer_ids=(2, 2)), r"got \(2, 2\)"),
    (dict(dspark_markov_rank=0), "dspark_markov_rank must be >= 1 with MTP layers, got 0"),
    (dict(num_nextn_predict_layers=-1), "num_nextn_predict_layers must be >= 0, got -1"),
], ids=["no-taps", "tap-0", "tap-past-end", "tap-twice", "rank-0", "negative-stages"])
def test_config_validation(fields, message):
    with pytest.raises(ValueError, match=message):
        DeepseekV41Config(**{**CFG.__dict__, **fields})


def test_stage_validation():
    with pytest.raises(ValueError, match=r"layer_index must be in num_hidden_layers \+ \[0, 3\) = \[3, 6\), got 6"):
        MTPLayerV41(CFG, LAYERS + STAGES, lambda i: ToyAttention(D), lambda i: ToyFFN(D, FFN_SIZE), embed=None,
                    head=None)
    stage = MTPLayerV41(CFG, LAYERS + 1, lambda i: ToyAttention(D), lambda i: ToyFFN(D, FFN_SIZE), embed=None,
                        head=None)
    with pytest.raises(ValueError, match=r"needs MTPLayerV41 stages 0, 1, ..., got \[1\]"):
        DSparkDrafter([stage])
    assert new_model(DeepseekV41Config(**{**CFG.__dict__, "num_nextn_predict_layers": 0})).mtp is None


@pytest.mark.gpu
def test_draft_step_cuda_graph_equals_eager(loaded):
    """Target forward (taps), context, drafter and its logits captured once, replayed on new tokens."""
    model = loaded.to("cuda")
    gen = torch.Generator().manual_seed(7)
    ids = torch.randint(0, CFG.vocab_size, (8,), generator=gen).cuda()
    pos = torch.arange(8, device="cuda")

    def step():
        model(ids, pos)
        ctx = model.mtp.combine_hidden_states(model.aux_hidden_states()[:8])
        model.mtp.precompute_and_store_context_kv(ctx, pos)
        hidden = model.mtp(ids, pos)
        return ctx, hidden, model.mtp.compute_logits(hidden)

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        step()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        outs = step()
    ids.copy_(torch.randint(0, CFG.vocab_size, (8,), generator=gen).cuda())
    graph.replay()
    torch.cuda.synchronize()
    assert_same(outs, step())
    loaded.to("cpu")
