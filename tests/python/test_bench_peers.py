"""The peer machinery of `dsv4ext.bench` on the CPU: the correctness check of a peer's output, the
FlashInfer adapters' argument mapping (against pure-torch stand-ins for FlashInfer's kernels), the
import without FlashInfer's package __init__, the skip notes, and the peers table."""

import ctypes
import importlib.util
import json
import os
import sys
import types

import pytest
import torch

from dsv4ext import reference
from dsv4ext.bench import cases, cli, cub_peer, flashinfer_peer, peer_check, peers, report
from dsv4ext.bench.timing import Timing, write_results

GEN = torch.Generator().manual_seed(0)


def _topk_prefill_args(rows=6, width=300, k=16, full=False):
    logits = torch.randn(rows, width, generator=GEN)
    starts = torch.zeros(rows, dtype=torch.int32) if full else torch.randint(0, 50, (rows,), generator=GEN,
                                                                              dtype=torch.int32)
    ends = torch.full((rows,), width, dtype=torch.int32)
    if not full:
        ends[0] = starts[0] + k // 2  # a row shorter than k
    return (logits, starts, ends, torch.empty(rows, k, dtype=torch.int32), k, False)


# ---------------------------------------------------------------------------------------------
# the check


def test_ours_pass_the_peer_check():
    # Seeded: mhc_args draws from the global generator, so its inputs depended on the tests before
    # this one. On about 2 % of random inputs the fused op's mixes exceed mix_rel 1e-5 (up to 6e-5)
    # without being wrong: its projection reads the new residual after the bf16 rounding, and a
    # value on a rounding boundary rounds one way in fp32 and the other in the float64 reference.
    torch.manual_seed(0)
    for op in ("mhc_pre", "mhc_pre_delayed", "mhc_post", "mhc_fused_post_pre", "mhc_fused_post_pre_delayed",
               "hc_head"):
        args = cases.mhc_args(op, 5, 256, "cpu")
        errors = peer_check.error(op, args, getattr(torch.ops.dsv4ext, op)(*args))
        assert peer_check.within_limits(errors), (op, errors)
        assert set(errors) <= {"mix_rel", "ulp"}
    args = _topk_prefill_args()
    torch.ops.dsv4ext.top_k_per_row_prefill(*args)
    assert peer_check.error("top_k_per_row_prefill", args, None) == {"rows_wrong": 0.0}  # read from args[3]


def test_torch_compile_peer_calls_the_reference(monkeypatch):
    # torch.compile itself is left out (an identity here): what is tested is the adapters' argument
    # mapping, compiled once per op, and the check of the delayed op's optional token arguments (x None).
    calls = []
    monkeypatch.setattr(torch, "compile", lambda fn, **kw: calls.append(fn) or fn)
    table = peers._torch_compile()
    assert {"mhc_pre", "mhc_pre_delayed", "mhc_post"} <= set(table)
    torch.manual_seed(1)
    for op in ("mhc_pre_delayed", "mhc_pre", "mhc_pre_delayed"):
        args = cases.mhc_args(op, 7, 256, "cpu")
        errors = peer_check.error(op, args, table[op](args)())
        assert peer_check.within_limits(errors) and set(errors) == {"mix_rel", "ulp"}, (op, errors)
    assert calls == [cases.OPS["mhc_pre_delayed"].reference, cases.OPS["mhc_pre"].reference]
    args = cases.mhc_args("mhc_pre_delayed", 7, 256, "cpu")
    post, comb, layer_input, new_pre = table["mhc_pre_delayed"](args)()
    assert not peer_check.within_limits(peer_check.error("mhc_pre_delayed", args, (post, comb, layer_input,
                                                                                   new_pre * 1.001)))


def test_wrong_outputs_are_caught():
    args = cases.mhc_args("mhc_pre", 5, 256, "cpu")
    post, comb, layer_input = torch.ops.dsv4ext.mhc_pre(*args)
    errors = peer_check.error("mhc_pre", args, (post, comb * 1.001, layer_input))
    assert not peer_check.within_limits(errors) and errors["mix_rel"] > 1e-4
    assert "mix_rel" in peer_check.describe(errors) and "> 1e-05" in peer_check.describe(errors)
    assert peer_check.error("mhc_pre", args, None) is None  # a peer covering part of the op: not checked

    logits, starts, ends, _, k, _ = args = _topk_prefill_args(full=True)
    good = torch.topk(logits, k).indices.int()
    bad = good.clone()
    bad[2, 0] = bad[2, 1]  # a duplicate index
    bad[4, 3] = -1  # a missing entry in a full row
    assert peer_check.error("top_k_per_row_prefill", args, good) == {"rows_wrong": 0.0}
    assert peer_check.error("top_k_per_row_prefill", args, bad) == {"rows_wrong": 2.0}


def test_topk_check_honours_windows():
    logits, starts, ends, _, k, _ = _topk_prefill_args()
    s, n = reference.row_windows_prefill(logits.shape[1], starts, ends)
    exact = reference.top_k_per_row(logits, s, n, k)  # relative to the start, -1 past a short row
    assert peer_check.topk_rows_wrong(logits, s, n, exact) == 0
    assert peer_check.topk_rows_wrong(logits, s, n, torch.topk(logits, k).indices) > 0


# ---------------------------------------------------------------------------------------------
# FlashInfer adapters against stand-ins with FlashInfer's signatures


class FakeMhc:
    """mhc_pre_big_fuse in plain fp32 torch, with FlashInfer's argument order."""

    @staticmethod
    def mhc_pre_big_fuse(dot, sqrsum, residual, scale, base, k, rms_eps, pre_eps, sinkhorn_eps, post_mult, repeat):
        n = residual.shape[-2]
        mix = dot * torch.rsqrt(sqrsum / k + rms_eps)[:, None]
        pre = torch.sigmoid(mix[:, :n] * scale[0] + base[:n]) + pre_eps
        post = post_mult * torch.sigmoid(mix[:, n:2 * n] * scale[1] + base[n:2 * n])
        logits = (mix[:, 2 * n:] * scale[2] + base[2 * n:]).unflatten(-1, (n, n))
        comb = reference.sinkhorn(logits, repeat, sinkhorn_eps, compute_dtype=torch.float32)
        return post[..., None], comb, (pre[..., None] * residual.float()).sum(-2).bfloat16()


class FakeTopk:
    """radix_topk, its ragged transform and the cluster top-k, exact, with FlashInfer's arguments."""

    def get_topk_module(self):
        return self

    @staticmethod
    def radix_topk(logits, k, sorted_output, deterministic, tie_break, row_states, values):
        return torch.topk(logits, k).indices.int()

    @staticmethod
    def radix_topk_ragged_transform(logits, out, offsets, lengths, row_states, k, deterministic, tie_break,
                                    graph_safe, row_starts):
        starts = torch.zeros_like(lengths) if row_starts is None else row_starts
        idx = reference.top_k_per_row(logits, starts, lengths, k)
        out.copy_(torch.where(idx >= 0, idx + offsets[:, None], idx))

    @staticmethod
    def topk_clusters_exact(logits, k):
        return torch.topk(logits, k).indices.int(), None


@pytest.mark.parametrize("tf32", [False, True, None])
@pytest.mark.parametrize("norm", [True, False])
def test_flashinfer_pre_adapter_computes_our_op(tf32, norm):
    args = cases.mhc_args("mhc_pre", 7, 256, "cpu")
    if not norm:
        args = (*args[:9], None, args[10])
    errors = peer_check.error("mhc_pre", args, flashinfer_peer._pre(FakeMhc, tf32)(args)())
    assert peer_check.within_limits(errors), errors


@pytest.mark.parametrize("op", ["top_k_per_row_prefill", "top_k_per_row_decode"])
def test_flashinfer_topk_adapters_map_our_windows(op):
    logits, starts, ends, indices, k, det = _topk_prefill_args(full=True)
    full = (logits, starts, ends, indices, k, det) if op == "top_k_per_row_prefill" else \
        (logits, 1, ends, indices, k, det)
    for adapter in (flashinfer_peer._topk_radix, flashinfer_peer._topk_clusters):
        assert peer_check.error(op, full, adapter(FakeTopk(), op)(full)()) == {"rows_wrong": 0.0}
    windowed = _topk_prefill_args() if op == "top_k_per_row_prefill" else \
        (logits, 1, torch.randint(k // 2, logits.shape[1], (logits.shape[0],), generator=GEN, dtype=torch.int32),
         indices, k, det)
    out = flashinfer_peer._topk_ragged(FakeTopk(), op, cub=False)(windowed)()
    assert peer_check.error(op, windowed, out) == {"rows_wrong": 0.0}
    with pytest.raises(ValueError, match="no row windows"):
        flashinfer_peer._topk_radix(FakeTopk(), op)(windowed)


def _tensor_at(address, rows, cols, ctype, dtype):
    """A CPU tensor over the memory a C function received as a pointer."""
    return torch.frombuffer((ctype * (rows * cols)).from_address(address), dtype=dtype).view(rows, cols)


class FakeCubLibrary:
    """benchmarks/cub_batched_topk.cu's C functions, exact, on CPU memory."""

    def __init__(self):
        self.calls = []

    def dsv4ext_cub_topk_temp_bytes(self, deterministic, rows, width, k):
        return 64 if k <= width else -1

    def dsv4ext_cub_topk(self, deterministic, temp, temp_bytes, logits, rows, width, k, indices, stream):
        self.calls.append((deterministic, temp_bytes, rows, width, k, stream))
        scores = _tensor_at(logits, rows, width, ctypes.c_float, torch.float32)
        _tensor_at(indices, rows, k, ctypes.c_int32, torch.int32).copy_(torch.topk(scores, k).indices)
        return 0


def test_cub_adapter_passes_the_rows_and_the_current_stream(monkeypatch):
    args = _topk_prefill_args(full=True)
    lib = FakeCubLibrary()
    monkeypatch.setattr(torch.cuda, "current_stream", lambda: types.SimpleNamespace(cuda_stream=1234))
    call = cub_peer._topk(lib, "top_k_per_row_prefill", deterministic=True)(args)
    assert peer_check.error("top_k_per_row_prefill", args, call()) == {"rows_wrong": 0.0}
    assert lib.calls == [(1, 64, *args[0].shape, args[4], 1234)]


def test_cub_peer_without_its_library_is_skipped(monkeypatch, tmp_path):
    monkeypatch.setenv(cub_peer.LIB_ENV, str(tmp_path / "missing.so"))
    with pytest.raises(peers.PeerSkipped, match="scripts/build_cub_topk.sh"):
        cub_peer.adapters(deterministic=True)


@pytest.fixture
def fake_flashinfer(tmp_path, monkeypatch):
    """A `flashinfer` package whose __init__ must not run, with mhc and topk modules."""
    pkg = tmp_path / "flashinfer"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("raise ImportError('the package __init__ must not run')\n")
    (pkg / "mhc.py").write_text("def get_mhc_module():\n    return 'mhc'\n")
    (pkg / "topk.py").write_text("def gen_topk_module():\n    return 'with cub'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    for name in [m for m in sys.modules if m == "flashinfer" or m.startswith("flashinfer.")]:
        del sys.modules[name]


def test_flashinfer_imports_without_its_init(fake_flashinfer, monkeypatch):
    monkeypatch.delenv(flashinfer_peer.CUB_ENV, raising=False)
    mhc, topk = flashinfer_peer.modules()
    assert mhc.get_mhc_module() == "mhc"
    assert topk.gen_topk_module is flashinfer_peer._topk_spec_without_cub
    with pytest.raises(peers.PeerSkipped, match="DSV4EXT_PEERS_CUB=1"):
        flashinfer_peer.adapters("flashinfer_cub")
    assert set(flashinfer_peer.adapters("flashinfer")) == {"mhc_post", "mhc_pre", "top_k_per_row_prefill",
                                                           "top_k_per_row_decode"}


def test_cub_build_keeps_flashinfers_topk_spec(fake_flashinfer, monkeypatch):
    monkeypatch.setenv(flashinfer_peer.CUB_ENV, "1")
    _, topk = flashinfer_peer.modules()
    assert topk.gen_topk_module() == "with cub"


def test_every_flashinfer_peer_has_an_adapter_table(fake_flashinfer, monkeypatch):
    monkeypatch.setenv(flashinfer_peer.CUB_ENV, "1")
    names = [name for name, (module, _, _) in peers.PEERS.items() if module == "flashinfer"]
    assert names[0] == "flashinfer" and "flashinfer_cub" in names
    for name in names:
        assert flashinfer_peer.adapters(name), name


# ---------------------------------------------------------------------------------------------
# skip notes, the measured row, the table


def test_a_loader_can_skip_its_peer_with_a_reason(monkeypatch):
    def loader():
        raise peers.PeerSkipped("not built here")

    monkeypatch.setattr(peers, "PEERS", {"fake": ("torch", loader, "")})
    assert peers.load("cuda", ["mhc_post"]) == ({}, ["peer fake: skipped, not built here"])


def test_measured_row_carries_the_peer_error_and_a_wrong_peer_is_noted():
    spec = cases.OPS["mhc_post"]
    case = spec.build(4, cases.MODELS["flash"], cases.SWEEPS["cpu"], "cpu")
    op = torch.ops.dsv4ext.mhc_post
    fake = {"good": {"mhc_post": lambda a: lambda: op(*a)},
            "bad": {"mhc_post": lambda a: lambda: op(*a) * 1.01}}
    notes = []
    row = cli.measure_case(spec, cases.MODELS["flash"], 4, case, "cpu", 1e10, {}, fake, notes, eager=False)
    assert "eager_us" not in row and row["x_good"] > 0 and row["x_bad"] > 0
    assert peer_check.within_limits(row["good_err"]) and not peer_check.within_limits(row["bad_err"])
    assert notes == [f"peer bad: mhc_post {case.shape} WRONG ({peer_check.describe(row['bad_err'])})"]

    table = report.peer_rows([row])
    assert [(r["peer"], r["verdict"]) for r in table] == [("good", "ok"), ("bad", "WRONG")]
    assert table[0]["ours_over_peer"] == pytest.approx(row["ours_us"] / row["good_us"])
    assert table[0]["peer_pct_floor"] == pytest.approx(100 * row["floor_us"] / row["good_us"])


def test_peers_are_timed_from_graphs_at_every_size(monkeypatch):
    """bench_peers.py (graph_all) replays ours and the peers from CUDA graphs at every size, graph_inner calls a
    replay; the CLI's default keeps eager timing above GRAPH_MAX_TOKENS."""
    seen = []

    def fake_measure(fn, device, graph, inner=1):
        seen.append((graph, inner))
        return Timing((1e-6,))

    monkeypatch.setattr(cli, "measure", fake_measure)
    spec = cases.OPS["mhc_post"]
    case = spec.build(4, cases.MODELS["flash"], cases.SWEEPS["cpu"], "cpu")
    op = torch.ops.dsv4ext.mhc_post
    peer = {"good": {"mhc_post": lambda a: lambda: op(*a)}}
    for tokens, graph_all, want in ((64, False, (True, 20)), (4096, False, (False, 5)), (4096, True, (True, 5)),
                                    (16385, True, (True, 2))):
        seen.clear()
        cli.measure_case(spec, cases.MODELS["flash"], tokens, case, "cuda", 1e10, {}, peer, [], eager=False,
                         graph_all=graph_all)
        assert seen == [want, want], (tokens, graph_all)  # ours, then the peer
    assert [cases.graph_inner(t) for t in (1, 64, 65, 16384, 16385)] == [20, 20, 5, 5, 2]


def test_peers_table_files(tmp_path):
    row = {"op": "mhc_post", "model": "flash", "shape": "1x4x4096", "floor_us": 1.0, "pct_floor": 50.0,
           "ours_us": 2.0, "x_eager": 9.0, "eager_us": 18.0, "fi_us": 1.0, "x_fi": 0.5,
           "fi_err": {"ulp": 0.5}, "dg_us": 4.0, "x_dg": 2.0}
    rows = report.peer_rows([row])
    assert [r["peer"] for r in rows] == ["fi", "dg"] and rows[1]["verdict"] == "not checked"
    write_results(str(tmp_path), "peers", {"gpu": "H100"}, rows, report.PEER_COLUMNS, report.PEER_HEADERS,
                  ["peer x: skipped"])
    md = (tmp_path / "peers.md").read_text()
    assert "| ours/peer (> 1: peer faster) |" in md
    assert "| mhc_post | flash | 1x4x4096 | fi | 2 | 50 | 1 | 100 | 2 | ulp 0.5 | ok |" in md
    assert md.rstrip().endswith("- peer x: skipped")
    data = json.loads((tmp_path / "peers.json").read_text())
    assert data["notes"] == ["peer x: skipped"] and data["rows"][0]["ours_over_peer"] == 2.0
    assert report.peer_table([{k: v for k, v in row.items() if not k.startswith(("fi", "dg", "x_fi", "x_dg"))}]) == []


def test_bench_peers_plan():
    path = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "bench_peers.py")
    sys.path.insert(0, os.path.dirname(path))
    try:
        spec = importlib.util.spec_from_file_location("bench_peers", path)
        bench = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bench)
    finally:
        sys.path.pop(0)
    plan = list(bench.plan(["mhc_pre", "top_k_per_row_decode"], [1, 2]))
    assert [(op, m.name, t) for op, m, t, _ in plan[:4]] == [("mhc_pre", "flash", 1), ("mhc_pre", "flash", 2),
                                                            ("mhc_pre", "pro", 1), ("mhc_pre", "pro", 2)]
    assert {t for op, _, t, _ in plan[4:]} == {1, 8, 16, 64} and len(plan) == 4 + 16
