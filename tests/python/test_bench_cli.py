"""`python -m dsv4ext bench` on the CPU: argument handling, the printed tables, the JSON record, the
plot, peers skipped with a note; and the pieces it is built from (floors, baselines, timing)."""

import importlib.util
import json

import pytest
import torch

from dsv4ext import device, reference
from dsv4ext.__main__ import main
from dsv4ext.bench import cases, cli, peers
from dsv4ext.bench.timing import Timing, time_cpu

TINY = ["bench", "--device", "cpu", "--model", "flash", "--tokens", "1", "2", "--no-compile"]


@pytest.mark.parametrize("argv, message", [
    (["--ops", "mhc_pree"], "invalid choice: 'mhc_pree'"),
    (["--device", "tpu"], "invalid choice: 'tpu'"),
    (["--model", "v3"], "invalid choice: 'v3'"),
    (["--tokens", "0"], "must be >= 1"),
    (["--tokens", "many"], "invalid _positive_int value"),
])
def test_bad_arguments_exit_2_naming_the_value(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        main(["bench", *argv])
    assert e.value.code == 2
    assert message in capsys.readouterr().err


def test_cuda_without_a_gpu_is_an_error(capsys):
    if cli._cuda_usable():
        pytest.skip("a GPU is usable here")
    assert main(["bench", "--device", "cuda", "--ops", "sinkhorn"]) == 2
    assert "--device cuda needs a visible GPU" in capsys.readouterr().err


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """One tiny CPU run of three ops (one the same for every model, one decode-only) with JSON and,
    when matplotlib is installed, the plot."""
    out = tmp_path_factory.mktemp("bench")
    json_path, png_path = out / "bench.json", out / "bench.png"
    argv = [*TINY, "--ops", "mhc_post", "sinkhorn", "top_k_per_row_decode", "--json", str(json_path)]
    if importlib.util.find_spec("matplotlib") is not None:
        argv += ["--plot", str(png_path)]
    assert main(argv) == 0
    return json.loads(json_path.read_text()), png_path


def test_json_records_versions_device_and_every_number(tiny_run):
    data, _ = tiny_run
    meta = data["meta"]
    import dsv4ext

    assert meta["device"] == "cpu" and meta["dsv4ext"] == dsv4ext.__version__ and meta["torch"] == torch.__version__
    for key in ("device_name", "driver", "runtime", "python", "threads", "command", "timing", "floor"):
        assert key in meta
    assert meta["copy_GBps"] > 0
    assert "--device cpu" in meta["command"] and "--no-compile" in meta["command"]

    rows = data["rows"]
    assert [(r["op"], r["model"], r["T"]) for r in rows] == [
        ("mhc_post", "flash", 1), ("mhc_post", "flash", 2), ("sinkhorn", "-", 1), ("sinkhorn", "-", 2),
        ("top_k_per_row_decode", "flash", 1), ("top_k_per_row_decode", "flash", 2)]
    for r in rows:
        assert 0 < r["ours_p10_us"] <= r["ours_us"] <= r["ours_p90_us"]
        assert r["GBps"] == pytest.approx(r["bytes"] / r["ours_us"] / 1e3)
        assert r["floor_us"] == pytest.approx(r["bytes"] / meta["copy_GBps"] / 1e3)
        assert r["pct_floor"] == pytest.approx(100 * r["floor_us"] / r["ours_us"])
        assert r["x_eager"] == pytest.approx(r["eager_us"] / r["ours_us"])
        assert "compiled_us" not in r  # --no-compile
    assert rows[0]["bytes"] == 18 * 4096  # mhc_post, T = 1, D = 4096
    assert rows[4]["shape"] == "1x8192 k=512"


def test_peers_are_skipped_with_a_note(tiny_run):
    notes = tiny_run[0]["notes"]
    for name in peers.PEERS:
        assert any(n.startswith(f"peer {name}: skipped") for n in notes), notes


def test_plot_is_a_png(tiny_run):
    pytest.importorskip("matplotlib")
    png = tiny_run[1].read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000


def test_plot_without_matplotlib_fails_before_timing(monkeypatch, tmp_path, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    assert main([*TINY, "--plot", str(tmp_path / "x.png")]) == 2
    captured = capsys.readouterr()
    assert "--plot needs matplotlib" in captured.err and "copy bandwidth" not in captured.out


def test_prints_one_table_per_op(capsys):
    assert main([*TINY, "--ops", "ragged_pack", "hc_head"]) == 0
    out = capsys.readouterr().out
    assert "copy bandwidth" in out
    assert out.index("### ragged_pack") < out.index("### hc_head")  # the order asked for
    assert "| model | shape | median µs | p10-p90 µs | GB/s | % floor | x eager |" in out
    assert out.count("| flash |") == 4


def test_decode_op_without_decode_sizes_is_noted(tmp_path):
    path = tmp_path / "b.json"
    argv = ["bench", "--device", "cpu", "--tokens", "128", "--no-compile", "--ops", "top_k_per_row_decode"]
    assert main([*argv, "--json", str(path)]) == 0
    data = json.loads(path.read_text())
    assert data["rows"] == []
    assert "top_k_per_row_decode: skipped, no token count <= 64 in the sweep" in data["notes"]


def test_installed_peer_is_not_run_on_cpu(tmp_path, monkeypatch):
    (tmp_path / "deep_gemm").mkdir()
    (tmp_path / "deep_gemm" / "__init__.py").write_text("raise ImportError('must not be imported on the CPU')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    usable, notes = peers.load("cpu", ["mhc_pre"])
    assert usable == {}
    assert "peer deepgemm: skipped, its kernels need a GPU" in notes


def test_floors_follow_the_specs():
    d = 7168
    ops = ("mhc_pre", "mhc_pre_delayed", "mhc_post", "mhc_fused_post_pre", "mhc_fused_post_pre_delayed", "hc_head",
           "mhc_post_hc_head")
    assert [cases.mhc_floor_bytes(op, 3, d) for op in ops] \
        == [3 * 10 * d, 3 * 10 * d, 3 * 18 * d, 3 * 20 * d, 3 * 20 * d, 3 * 10 * d, 3 * 20 * d]  # ops.md §7, §4.6
    assert cases.topk_floor_bytes(64, 8192) == 64 * 8192 * 4
    assert cases.pack_floor_bytes(10, 100) == 40 + 800 + 44


def test_pack_baseline_matches_the_reference():
    gen = torch.Generator().manual_seed(0)
    dense = torch.randint(-5, 100, (37, 20), generator=gen, dtype=torch.int32)
    lengths = torch.randint(-3, 25, (37,), generator=gen, dtype=torch.int32)
    packed, indptr = cases.torch_ragged_pack(dense, lengths)
    want_packed, want_indptr = reference.ragged_pack(dense, lengths)
    assert torch.equal(packed, want_packed) and torch.equal(indptr.int(), want_indptr)


@pytest.mark.parametrize("op", list(cases.OPS))
def test_every_case_runs_ours_and_its_baseline(op):
    spec = cases.OPS[op]
    case = spec.build(3, cases.MODELS["flash"], cases.Sweep((3,), 600, 700), "cpu")
    getattr(torch.ops.dsv4ext, op)(*case.args)
    spec.baseline()(*case.ref_args)
    assert case.nbytes > 0


def test_timing_quantiles():
    t = Timing((5.0, 1.0, 3.0, 2.0, 4.0))
    assert (t.median, t.quantile(0.0), t.quantile(0.1), t.quantile(0.9), t.quantile(1.0)) == (3.0, 1.0, 1.4, 4.6, 5.0)
    assert len(time_cpu(lambda: None, reps=4).samples) == 4


def test_version_encodings():
    assert device._cuda_version(13050) == "13.5" and device._cuda_version(0) == "-"
    assert device._hip_version(60342134) == "6.3.42134"


def test_info_reports_cpu_and_gpu_query(capsys):
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    assert "CPU           :" in out and "GPU query     :" in out


def _fake_modules(monkeypatch, names_to_attrs):
    """Installs fake modules (name -> attributes) in sys.modules for the duration of a test."""
    import sys
    import types

    for name, attrs in names_to_attrs.items():
        monkeypatch.setitem(sys.modules, name, types.SimpleNamespace(**attrs))


def test_info_through_cuda_python(monkeypatch):
    import enum
    import types

    class Err(enum.IntEnum):
        cudaSuccess = 0

    props = types.SimpleNamespace(name=b"NVIDIA H100 80GB HBM3\0", major=9, minor=0, multiProcessorCount=132,
                                  l2CacheSize=50 * 2**20, totalGlobalMem=80 * 2**30)
    runtime = dict(cudaError_t=Err, cudaGetDeviceCount=lambda: (Err.cudaSuccess, 1),
                   cudaGetDeviceProperties=lambda i: (Err.cudaSuccess, props),
                   cudaDriverGetVersion=lambda: (Err.cudaSuccess, 13000),
                   cudaRuntimeGetVersion=lambda: (Err.cudaSuccess, 12080))
    rt = types.SimpleNamespace(**runtime)
    _fake_modules(monkeypatch, {"cuda": {"bindings": types.SimpleNamespace(runtime=rt)},
                                "cuda.bindings": {"runtime": rt}, "cuda.bindings.runtime": runtime})
    monkeypatch.setattr(torch.version, "hip", None)
    info = device.gpus()
    assert (info["query"], info["driver"], info["runtime"]) == ("cuda-python", "13.0", "12.8")
    assert device.gpu_lines()[1] == "  cuda:0        : NVIDIA H100 80GB HBM3, sm_90, 132 SMs, L2 50 MiB, 80 GiB"


def test_info_through_hip_python(monkeypatch):
    import enum
    import types

    class Err(enum.IntEnum):
        hipSuccess = 0

    def get_properties(p, i):
        p.__dict__.update(name=b"AMD Instinct MI300X", gcnArchName=b"gfx942:sramecc+:xnack-",
                          multiProcessorCount=304, l2CacheSize=4 * 2**20, totalGlobalMem=192 * 2**30)
        return (Err.hipSuccess,)

    hip = types.SimpleNamespace(hipError_t=Err, hipGetDeviceCount=lambda: (Err.hipSuccess, 1),
                                hipDeviceProp_t=types.SimpleNamespace, hipGetDeviceProperties=get_properties,
                                hipDriverGetVersion=lambda: (Err.hipSuccess, 60342134),
                                hipRuntimeGetVersion=lambda: (Err.hipSuccess, 60342134))
    _fake_modules(monkeypatch, {"hip": {"hip": hip}})
    monkeypatch.setattr(torch.version, "hip", "6.3.42134")
    info = device.gpus()
    assert (info["query"], info["driver"]) == ("hip-python", "6.3.42134")
    assert info["devices"] == [{"name": "AMD Instinct MI300X", "arch": "gfx942:sramecc+:xnack-", "units": 304,
                                "unit_name": "CUs", "l2_bytes": 4 * 2**20, "memory_bytes": 192 * 2**30}]


def test_binding_without_a_driver_falls_back_to_torch(monkeypatch):
    import enum
    import types

    class Err(enum.IntEnum):
        cudaSuccess = 0
        cudaErrorInsufficientDriver = 35

    rt = types.SimpleNamespace(cudaError_t=Err, cudaGetDeviceCount=lambda: (Err.cudaErrorInsufficientDriver, None))
    _fake_modules(monkeypatch, {"cuda": {"bindings": types.SimpleNamespace(runtime=rt)},
                                "cuda.bindings": {"runtime": rt}})
    monkeypatch.setattr(torch.version, "hip", None)
    info = device.gpus()
    assert info["query"] == "torch" and info["note"] == "cuda-python: cudaErrorInsufficientDriver"
