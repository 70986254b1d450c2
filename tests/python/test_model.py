"""Model layer (shared/spec/ops.md §4): a tiny DeepSeek-V4 (2 layers + 1 MTP layer, D = 256, n = 4,
toy attention/FFN) written to a synthetic safetensors checkpoint and loaded back; the fused,
deferred-post model against the unfused DS flow (model_cases); MTP with its own hc_head; each norm
applied once; one DecoderLayer signature; torch.compile(fullgraph=True); CUDA-graph replay; loader
errors.

Error growth (fused model vs the float32 unfused DS flow, T = 16, CPU backend; the error relative to
the reference's largest (max) and rms value (rms), printed by test_forward_matches_unfused_reference):
    after layer 0: max 0.67 %, rms 0.28 %;  after layer 1: max 0.47 %, rms 0.41 %;
    final hidden: max 0.72 %, rms 0.46 %;   logits: max 0.39 %, rms 0.51 %.
(The same setup with 8 layers, not run here: rms 0.27, 0.39, 0.47, 0.52, 0.55, 0.58, 0.60, 0.63 %,
max below 1 %: slower than linear growth.) The difference comes from the norms: the fused pre scales
bf16(y) by a statistic of the unrounded y (§3.5) while a separate RMSNorm rounds y first, so about
4 % of the sub-layer inputs differ by one bf16 ulp; each output of a bf16 sub-layer mixes all D
inputs, so after layer 0 about a third of the stream values differ (by about an ulp). Against the
reference with the norms fused the same way only the reduction order differs: rms 4e-10 after
layer 0, 2e-8 after layer 1, final hidden and logits bitwise equal here (other data: up to 0.1 %).
Tolerances: max 2 %, rms 1 % (DS flow); max 1 %, rms 0.2 % (fused-norm flow). A norm applied twice
(weights 1 + 0.2 randn) is off by 11 % rms, logits through the model's hc_head instead of the MTP
layer's by 8 %.
"""

import copy
import inspect

import pytest
import torch
from torch import nn

from dsv4ext.model import (CheckpointError, DecoderLayer, DeepseekV4Model, MTPLayer, RMSNorm, checkpoint_tensors,
                           load_safetensors, load_state)
from dsv4ext.model.toy import ToyAttention, ToyFFN
from mhc_cases import assert_same
from model_cases import CONFIG, FFN_SIZE, head_hidden, model_streams, mtp_streams, new_model, synthetic_checkpoint

TOKENS = 16
# (max, rms) error relative to the reference's largest / rms value; see the module docstring.
TOL_DS_FLOW = (2e-2, 1e-2)
TOL_FUSED_NORM_FLOW = (1e-2, 2e-3)


def rel_errors(got: torch.Tensor, want: torch.Tensor):
    err, want = (got.float() - want.float()).cpu(), want.float().cpu()
    return (err.abs().max() / want.abs().max()).item(), (err.norm() / want.norm()).item()


def assert_within(got, want, tol, what):
    max_rel, rms_rel = rel_errors(got, want)
    assert max_rel <= tol[0] and rms_rel <= tol[1], \
        f"{what}: max rel {max_rel:.2e} (limit {tol[0]:.0e}), rms rel {rms_rel:.2e} (limit {tol[1]:.0e})"
    return max_rel, rms_rel


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    """(path or None, tensors): the synthetic checkpoint, written with safetensors when installed."""
    tensors = synthetic_checkpoint(new_model())
    try:
        from safetensors.torch import save_file
    except ImportError:  # the GPU machines have no package registry
        return None, tensors
    path = tmp_path_factory.mktemp("checkpoint") / "model.safetensors"
    save_file(tensors, str(path))
    return str(path), tensors


@pytest.fixture(scope="module")
def loaded(checkpoint):
    """The tiny model loaded from the file (from the same tensors where safetensors is missing)."""
    path, tensors = checkpoint
    model = new_model()
    if path is None:
        load_state(model, tensors)
    else:
        load_safetensors(model, path)
    return model


def on(model, device):
    return copy.deepcopy(model).to(device)


def inputs(device, tokens=TOKENS, start=0, seed=0):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, CONFIG.vocab_size, (tokens,), generator=g)
    return ids.to(device), torch.arange(start, start + tokens).to(device)


def test_checkpoint_round_trip(checkpoint, loaded):
    path, tensors = checkpoint
    if path is None:
        pytest.skip("needs safetensors")
    names = checkpoint_tensors(loaded)
    assert set(names) == set(tensors)
    for name, t in names.items():
        assert torch.equal(t, tensors[name]), name
    addresses = {name: t.data_ptr() for name, t in names.items()}
    load_safetensors(loaded, path)  # reload in place: graphs captured on these tensors stay valid
    assert {name: t.data_ptr() for name, t in checkpoint_tensors(loaded).items()} == addresses


def fused_streams(model, ids, pos):
    """The model's own layer chain, with each layer's deferred post applied to read its streams."""
    x = model.embed(ids).unsqueeze(-2).expand(-1, CONFIG.hc_mult, -1).contiguous()
    residual = post = comb = None
    out = []
    for layer in model.layers:
        x, residual, post, comb = layer(x, pos, ids, post_mix=post, res_mix=comb, residual=residual)
        out.append(layer.hc_ffn.post(x, residual, post, comb))
    return out


def test_forward_matches_unfused_reference(loaded, device):
    model = on(loaded, device)
    ids, pos = inputs(device)
    hidden = model(ids, pos)
    streams = fused_streams(model, ids, pos)
    assert_same(model.mtp_hidden_states()[:TOKENS], streams[-1].flatten(-2))
    report = []
    for fuse_norms, tol in ((False, TOL_DS_FLOW), (True, TOL_FUSED_NORM_FLOW)):
        want = model_streams(model, ids, pos, fuse_norms)
        flow = "fused-norm flow" if fuse_norms else "DS flow"
        for i, (got, w) in enumerate(zip(streams, want)):
            report.append((flow, f"layer {i}", *assert_within(got, w, tol, f"{flow}, streams after layer {i}")))
        want_hidden = head_hidden(want[-1], model.hc_head, model.norm.weight)
        report.append((flow, "hidden", *assert_within(hidden, want_hidden, tol, f"{flow}, final hidden")))
        want_logits = model.head(want_hidden).float()
        report.append((flow, "logits", *assert_within(model.compute_logits(hidden), want_logits, tol,
                                                      f"{flow}, logits")))
    print("\nfused model vs unfused reference (relative max / rms error):")
    for flow, where, max_rel, rms_rel in report:
        print(f"  {flow:16s} {where:8s} max {max_rel:.2e}  rms {rms_rel:.2e}")


def test_mtp_uses_its_own_hc_head_and_shared_embed_and_head(loaded, device):
    model = on(loaded, device)
    mtp = model.mtp.layers[0]
    assert mtp.embed is model.embed and mtp.head is model.head
    assert mtp.hc_head is not model.hc_head
    assert sum(isinstance(m, nn.Embedding) for m in model.modules()) == 1
    ids, pos = inputs(device)
    model(ids, pos)
    previous = model.mtp_hidden_states()[:TOKENS].clone()
    nxt = model.mtp(ids, pos, previous)
    want = mtp_streams(mtp, ids, pos, previous)
    assert_within(nxt.unflatten(-1, (CONFIG.hc_mult, -1)), want, TOL_DS_FLOW, "MTP streams")
    logits = model.mtp.compute_logits(nxt)
    own = mtp.head(head_hidden(want, mtp.hc_head, mtp.norm.weight)).float()
    assert_within(logits, own, TOL_DS_FLOW, "MTP logits")
    # Streams other than the ones the last forward returned go through hc_head then the norm module.
    assert_within(model.mtp.compute_logits(nxt.clone()), logits, TOL_FUSED_NORM_FLOW, "MTP logits, unfused path")
    models_head = mtp.head(head_hidden(want, model.hc_head, mtp.norm.weight)).float()
    _, wrong_rms = rel_errors(logits, models_head)  # about 8 % with the synthetic head biases
    assert wrong_rms > 5 * TOL_DS_FLOW[1], f"MTP logits are as close to the model's hc_head ({wrong_rms:.1e})"


def test_each_norm_runs_once(loaded):
    """The attention/FFN norms are fused into the pre and the final and MTP norms into mhc_post_hc_head
    (never called); enorm and hnorm run once per call. Numerically, a norm applied twice fails the reference tests above."""
    model = on(loaded, "cpu")
    calls = {}
    for name, module in model.named_modules():
        if isinstance(module, RMSNorm):
            calls[name] = 0
            module.register_forward_hook(lambda m, args, out, name=name: calls.__setitem__(name, calls[name] + 1))
    ids, pos = inputs("cpu", tokens=5)
    hidden = model(ids, pos)
    model.compute_logits(hidden)
    nxt = model.mtp(ids, pos, model.mtp_hidden_states()[:5])
    model.mtp.compute_logits(nxt)
    once = {"mtp.layers.0.enorm", "mtp.layers.0.hnorm"}
    assert any(name.endswith("attn_norm") for name in calls) and any(name.endswith("ffn_norm") for name in calls)
    assert calls == {name: int(name in once) for name in calls}


@pytest.mark.parametrize("tokens", [0, 5])
def test_decoder_layer_contract(loaded, tokens):
    """One signature; a 4-tuple of tensors (never None) from the first layer and from later ones."""
    params = list(inspect.signature(DecoderLayer.forward).parameters)
    assert params == ["self", "x", "positions", "input_ids", "post_mix", "res_mix", "residual"]
    n, d = CONFIG.hc_mult, CONFIG.hidden_size
    ids, pos = inputs("cpu", tokens=tokens)
    streams = loaded.embed(ids).unsqueeze(-2).expand(-1, n, -1).contiguous()
    first = loaded.layers[0](streams, pos, ids)
    second = loaded.layers[1](first[0], pos, ids, first[2], first[3], first[1])
    for out in (first, second):
        shapes = [(t.shape, t.dtype) for t in out]
        assert shapes == [((tokens, d), torch.bfloat16), ((tokens, n, d), torch.bfloat16),
                          ((tokens, n, 1), torch.float32), ((tokens, n, n), torch.float32)]
    with pytest.raises(ValueError, match="residual was given without post_mix"):
        loaded.layers[1](first[0], pos, ids, residual=first[1])


def decode_step(model, ids, pos):
    """One decode step: model forward, logits, one MTP step on the stash, MTP logits."""
    hidden = model(ids, pos)
    nxt = model.mtp(ids, pos, model.mtp_hidden_states()[:ids.shape[0]])
    return model.compute_logits(hidden), nxt, model.mtp.compute_logits(nxt)


def test_compile_decode_step_fullgraph(loaded, device):
    """No graph break; on the CPU bitwise equal to eager (on CUDA inductor's own norm reductions may
    differ in the last bit, so it is held to the model tolerance there)."""
    model = on(loaded, device)
    ids, pos = inputs(device, tokens=4, start=7)
    torch._dynamo.reset()
    compiled = torch.compile(decode_step, fullgraph=True, dynamic=False)
    got, eager = compiled(model, ids, pos), decode_step(model, ids, pos)
    if device == "cpu":
        assert_same(got, eager)
    else:
        for g, e in zip(got, eager):
            assert_within(g, e, TOL_DS_FLOW, "compiled vs eager")


@pytest.mark.gpu
def test_cuda_graph_decode_step_matches_eager(loaded):
    model = on(loaded, "cuda")
    ids, pos = inputs("cuda", tokens=4, start=3)
    stash = model.mtp_hidden_states().data_ptr()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        decode_step(model, ids, pos)  # warm-up outside capture
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        outs = decode_step(model, ids, pos)
    new_ids, new_pos = inputs("cuda", tokens=4, start=0, seed=1)  # position 0: MTP zeroes that embedding
    ids.copy_(new_ids)
    pos.copy_(new_pos)
    graph.replay()
    replayed = [t.clone() for t in outs]
    assert model.mtp_hidden_states().data_ptr() == stash
    assert_same(replayed, decode_step(model, new_ids, new_pos))


LOADER_ERRORS = {
    "missing": (lambda t: t.pop("layers.1.hc_ffn_scale"),
                "missing tensor 'layers.1.hc_ffn_scale' (expected shape (3,) float32)"),
    "shape": (lambda t: t.__setitem__("mtp.0.hc_head_fn", torch.zeros(4, 1000)),
              "tensor 'mtp.0.hc_head_fn': expected shape (4, 1024) float32, got shape (4, 1000) float32"),
    "dtype": (lambda t: t.__setitem__("layers.0.attn_norm.weight", torch.ones(256)),
              "tensor 'layers.0.attn_norm.weight': expected shape (256,) bfloat16, got shape (256,) float32"),
    "unexpected": (lambda t: t.__setitem__("layers.0.attn.bias", torch.zeros(256, dtype=torch.bfloat16)),
                   "unexpected tensor 'layers.0.attn.bias' (shape (256,) bfloat16): not used by the model"),
}


@pytest.mark.parametrize("case", LOADER_ERRORS)
def test_loader_errors_name_the_tensor(checkpoint, case):
    mutate, message = LOADER_ERRORS[case]
    tensors = dict(checkpoint[1])
    mutate(tensors)
    model = new_model()
    before = model.layers[0].hc_attn.fn.clone()
    with pytest.raises(CheckpointError) as err:
        load_state(model, tensors)
    assert message in str(err.value)
    assert torch.equal(model.layers[0].hc_attn.fn, before), "a rejected checkpoint was partly loaded"


def test_loader_lists_every_problem_and_strict_false_ignores_extras(checkpoint):
    tensors = dict(checkpoint[1])
    for mutate, _ in LOADER_ERRORS.values():
        mutate(tensors)
    with pytest.raises(CheckpointError, match="4 problems"):
        load_state(new_model(), tensors)
    extra = {**checkpoint[1], "layers.0.attn.bias": torch.zeros(1)}
    load_state(new_model(), extra, strict=False)


def test_load_safetensors_reports_missing_tensor(checkpoint, tmp_path):
    save_file = pytest.importorskip("safetensors.torch").save_file
    tensors = {k: v for k, v in checkpoint[1].items() if k != "mtp.0.hnorm.weight"}
    save_file(tensors, str(tmp_path / "partial.safetensors"))
    missing = r"missing tensor 'mtp.0.hnorm.weight' \(expected shape \(256,\) bfloat16\)"
    with pytest.raises(CheckpointError, match=missing):
        load_safetensors(new_model(), str(tmp_path / "partial.safetensors"))


# ---- shared aux streams (spec §4.6) ---------------------------------------------------------------


@pytest.mark.parametrize("count", [3, 0])
def test_aux_streams_are_one_shared_list(count):
    """The model creates its streams once (none without a GPU or when 0) and hands the same list object
    to every decoder layer, the MTP layer, its block and every factory call; a deep copy keeps it."""
    seen = []

    def make(kind):
        def factory(i, streams):
            seen.append((kind, i, streams))
            d = CONFIG.hidden_size
            return ToyAttention(d, streams) if kind == "attn" else ToyFFN(d, FFN_SIZE, streams)
        return factory

    model = DeepseekV4Model(CONFIG, make("attn"), make("ffn"), num_aux_streams=count)
    streams = model.aux_streams
    want = count if torch.cuda.is_available() else 0
    assert len(streams) == want and all(isinstance(s, torch.cuda.Stream) for s in streams)
    layers = CONFIG.num_hidden_layers + CONFIG.num_nextn_predict_layers
    assert sorted((kind, i) for kind, i, _ in seen) == sorted((k, i) for k in ("attn", "ffn") for i in range(layers))
    assert all(s is streams for _, _, s in seen)
    mtp = model.mtp.layers[0]
    holders = [*model.layers, mtp, mtp.block, *(m for m in model.modules() if isinstance(m, (ToyAttention, ToyFFN)))]
    assert all(h.aux_streams is streams for h in holders)
    assert copy.deepcopy(model).layers[1].aux_streams is streams


def test_one_argument_factories_still_work():
    d = CONFIG.hidden_size
    model = DeepseekV4Model(CONFIG, lambda i: ToyAttention(d), lambda i: ToyFFN(d, FFN_SIZE))
    assert isinstance(model.mtp.layers[0].block.attn, ToyAttention)


def test_decoder_and_mtp_constructors_take_streams_alike():
    """One constructor shape: the stream argument has the same name, position, kind and default in
    DecoderLayer and MTPLayer (vLLM's MTP layer kept an old signature and failed to load)."""
    dec = list(inspect.signature(DecoderLayer.__init__).parameters.values())
    mtp = list(inspect.signature(MTPLayer.__init__).parameters.values())
    head = ["self", "config", "layer_index", "make_attn", "make_ffn", "aux_streams"]
    assert [p.name for p in dec] == head
    assert [(p.name, p.kind, p.default) for p in mtp[:len(head)]] == [(p.name, p.kind, p.default) for p in dec]
    assert all(p.kind == inspect.Parameter.KEYWORD_ONLY for p in mtp[len(head):])


def _toy_attention_pair(seed=0):
    """(ToyAttention on the main stream only, the same weights with an aux stream), on CUDA."""
    torch.manual_seed(seed)
    d = CONFIG.hidden_size
    main = ToyAttention(d).cuda().requires_grad_(False)
    aux = ToyAttention(d, [torch.cuda.Stream()]).cuda().requires_grad_(False)
    aux.proj.weight.copy_(main.proj.weight)
    return main, aux


@pytest.mark.gpu
def test_aux_stream_attention_equals_main_stream_eager_and_graph():
    main, aux = _toy_attention_pair()
    pos = torch.arange(37, device="cuda")
    h = torch.randn(37, CONFIG.hidden_size, device="cuda").bfloat16()
    with torch.no_grad():
        assert_same(aux(pos, h), main(pos, h))
        static = h.clone()
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            aux(pos, static)  # warm-up outside capture
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = aux(pos, static)
        fresh = torch.randn_like(h)
        static.copy_(fresh)
        graph.replay()
        torch.cuda.synchronize()
        assert_same(out, main(pos, fresh))


# ---- DeepSeek and vLLM checkpoint names (spec §4.5) -----------------------------------------------


def test_vllm_names_follow_the_remap():
    names = checkpoint_tensors(new_model(), "vllm")
    mtp = f"model.layers.{CONFIG.num_hidden_layers}."
    for name in ("lm_head.weight", "model.embed.weight", "model.norm.weight", "model.hc_head_fn",
                 "model.layers.1.hc_ffn_scale", "model.layers.0.attn_norm.weight", mtp + "hc_head_base",
                 mtp + "shared_head.norm.weight", mtp + "enorm.weight", mtp + "attn_norm.weight"):
        assert name in names, name
    assert len(names) == len(checkpoint_tensors(new_model()))


def test_both_namings_load_bitwise_into_the_same_model(checkpoint, tmp_path):
    save_file = pytest.importorskip("safetensors.torch").save_file
    ds = checkpoint[1]
    vllm_names = dict(zip(checkpoint_tensors(new_model()), checkpoint_tensors(new_model(), "vllm")))
    save_file({vllm_names[k]: v for k, v in ds.items()}, str(tmp_path / "vllm.safetensors"))
    save_file(ds, str(tmp_path / "ds.safetensors"))
    models = []
    for name in ("ds", "vllm"):
        model = new_model()
        load_safetensors(model, str(tmp_path / f"{name}.safetensors"))
        models.append(model)
    a, b = (checkpoint_tensors(m) for m in models)
    for name in a:
        assert_same(a[name], b[name])
        assert_same(a[name], ds[name])
    ids, pos = inputs("cpu", tokens=5)
    assert_same(models[0](ids, pos), models[1](ids, pos))


@pytest.mark.parametrize("case", ["mixed", "unknown"])
def test_mixed_or_unknown_names_are_rejected_and_nothing_loads(checkpoint, case):
    ds = dict(checkpoint[1])
    if case == "mixed":
        vllm_names = dict(zip(checkpoint_tensors(new_model()), checkpoint_tensors(new_model(), "vllm")))
        for name in ("layers.1.hc_ffn_fn", "norm.weight"):
            ds[vllm_names[name]] = ds.pop(name)
        message = "mixes tensor naming schemes: "
        offending = ["'model.layers.1.hc_ffn_fn'", "'model.norm.weight'"]
    else:
        ds = {"backbone." + k: v for k, v in ds.items()}
        message = "neither DeepSeek's nor vLLM's"
        offending = [f"'backbone.{k}'" for k in list(checkpoint[1])[:5]]
    model = new_model()
    before = {k: t.clone() for k, t in checkpoint_tensors(model).items()}
    with pytest.raises(CheckpointError) as err:
        load_state(model, ds)
    assert message in str(err.value)
    assert all(name in str(err.value) for name in offending), str(err.value)
    assert all(torch.equal(t, before[k]) for k, t in checkpoint_tensors(model).items()), "partly loaded"
