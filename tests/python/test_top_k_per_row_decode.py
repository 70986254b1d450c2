"""top_k_per_row_decode (shared/spec/topk.md §2, §4, §9): 1-D and 2-D seq_lens, next_n, padded rows,
clamping, value patterns, output views, validation, opcheck / fake tensors and (GPU) CUDA graphs."""

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from dsv4ext import reference as ref
from topk_cases import (FEW_ON_PREFIX, LAYOUTS, assert_rejects, SENTINEL, check_decode, few_on_prefix_row, i32,
                        pattern_rows, poisoned, run_decode, strided_logits)

OP = torch.ops.dsv4ext.top_k_per_row_decode
DET = pytest.mark.parametrize("deterministic", [False, True], ids=["default", "det"])


def test_row_lengths_by_hand(device):
    """Row r = b*next_n + q: 1-D len = seq_lens[b] - next_n + q + 1, 2-D len = seq_lens[b, q], both
    clamped to [0, W]; windows start at column 0."""
    width, next_n, k = 50, 4, 8
    logits = torch.arange(width, 0, -1).float().repeat(12, 1)  # decreasing: lowest columns win
    one_d = i32([5, 1, 100], device)
    lens_1d = [2, 3, 4, 5, 0, 0, 0, 1, 50, 50, 50, 50]
    two_d = i32([[0, 9, -3, 70], [1, 7, 8, 2], [50, 49, 3, 6]], device)
    lens_2d = [0, 9, 0, 50, 1, 7, 8, 2, 50, 49, 3, 6]
    for seq_lens, lens in [(one_d, lens_1d), (two_d, lens_2d)]:
        assert ref.row_windows_decode(12, width, next_n, seq_lens.cpu())[1].tolist() == lens
        out = run_decode(logits.to(device), next_n, seq_lens, k, True).cpu()
        expected = [list(range(min(n, k))) + [-1] * (k - min(n, k)) for n in lens]
        assert out.tolist() == expected


def _seq_lens(batch, next_n, width, k, two_d, g):
    """Lengths around 0, next_n, k and W (including padded rows, negatives and > W)."""
    pool = torch.tensor([0, -4, 1, next_n - 1, k - 1, k, k + 1, k + next_n, width - 1, width, width + 9])
    if two_d:
        lens = pool[torch.randint(0, pool.numel(), (batch, next_n), generator=g)]
        lens[0] = 0  # a padded request
        return lens.to(torch.int32)
    lens = torch.cat([pool, torch.randint(0, width + 1, (batch,), generator=g)])[:batch]
    return lens[torch.randperm(batch, generator=g)].to(torch.int32)


# (next_n, k, 2-D seq_lens, width); (2, 2048, False, 1000) has k > width; the widths >= 16384 take
# the CUDA cluster path (a row split over 4 blocks), the 16384-wide one with exactly 48 KB of
# dynamic shared memory per block.
CASES = [(1, 1, False, 64), (2, 7, False, 64), (4, 512, False, 1536), (4, 2048, False, 6144), (1, 512, True, 1536),
         (2, 2048, True, 6144), (4, 7, True, 64), (2, 2048, False, 1000), (2, 2048, False, 20000),
         (1, 256, False, 16384)]


@DET
@pytest.mark.parametrize("next_n,k,two_d,width", CASES,
                         ids=[f"n{n}-k{k}-{'2d' if t else '1d'}-w{w}" for n, k, t, w in CASES])
def test_random_vs_reference(device, next_n, k, two_d, width, deterministic):
    g = torch.Generator().manual_seed(next_n * 1000 + k + width)
    batch = 12
    seq_lens = _seq_lens(batch, next_n, width, k, two_d, g)
    logits = torch.randn(batch * next_n, width, generator=g)
    out = run_decode(logits.to(device), next_n, seq_lens.to(device), k, deterministic)
    check_decode(logits, next_n, seq_lens, k, out, deterministic)


def test_b1_seq_lens_with_next_n_1_equals_1d(device):
    """[B, 1] is the 2-D form with next_n == 1 and means the same as [B]."""
    g = torch.Generator().manual_seed(1)
    logits = torch.randn(6, 700, generator=g).to(device)
    lens = i32([0, 1, 300, 511, 512, 700], device)
    a = run_decode(logits, 1, lens, 512, True)
    b = run_decode(logits, 1, lens[:, None].contiguous(), 512, True)
    assert torch.equal(a, b)
    check_decode(logits, 1, lens, 512, a, True)


@pytest.mark.parametrize("pattern", ["small_ints", "all_equal", "band_1_1245", "relu_few_winners", "low10bits",
                                     "lesson1_100win_8220zeros"])
@pytest.mark.parametrize("width", [16512, 65536], ids=["w16512", "w65536"])
@DET
def test_value_patterns(device, pattern, width, deterministic):
    """Ties, bands and low-bit differences; on CUDA a row is split over a cluster of 4 (16512) or
    8 (65536) blocks, so ties on the k-th value span blocks and the write's offsets come from the
    lower-rank blocks' counts."""
    logits = pattern_rows(pattern, 4, width, seed=2)
    width = logits.shape[1]
    seq_lens = i32([width, width - 100], device)  # next_n = 2: lengths W-1, W then W-101, W-100
    out = run_decode(logits.to(device), 2, seq_lens, 2048, deterministic)
    check_decode(logits, 2, seq_lens, 2048, out, deterministic)


# (rows, width): on the H100 the cluster size is the largest whose clusters are all resident at once,
# and slices of >= 16384 keys stream with two groups of 4 loads a lane in flight. Steps per warp of a
# full-length row's slice: 18 (16 rows of 69636 in clusters of 4: a last group of two), 32 (32 rows of
# 65536 in clusters of 2, two rows of 261144 in clusters of 8) and 19 (three rows of 150001 in
# clusters of 8: a last group of three); the other rows are up to 2000 shorter. Clusters of 4-8 exchange
# 16-bit histogram bins while every slice holds fewer than 65536 keys: one row of 8 x 65535 (a slice
# of 65535 equal keys fills a bin) and one key more (32-bit pushes).
LONG_SLICES = [(16, 65536 + 4100), (32, 65536), (2, 262144 - 1000), (3, 150001), (1, 8 * 65535), (1, 8 * 65535 + 1)]


@pytest.mark.parametrize("rows,width", LONG_SLICES, ids=[f"R{r}_W{w}" for r, w in LONG_SLICES])
@pytest.mark.parametrize("pattern", ["randn", "all_equal"])
@DET
def test_long_slices_and_many_clusters(device, rows, width, pattern, deterministic):
    g = torch.Generator().manual_seed(rows + width)
    if pattern == "randn":
        logits = torch.randn(rows, width, generator=g)
    else:
        logits = pattern_rows(pattern, rows, width, seed=3)
    seq_lens = torch.randint(width - 2000, width + 1, (rows,), generator=g).to(torch.int32)
    seq_lens[0] = width
    for k in (512, 2048):
        out = run_decode(logits.to(device), 1, seq_lens.to(device), k, deterministic)
        check_decode(logits, 1, seq_lens, k, out, deterministic)


# (rows, width) for the CUDA paths: clusters of 8 (all-to-all), of 2, of 4 (all-to-all), of 8 pushing
# 32-bit bins, one 1024-thread block a row.
FEW_SHAPES = [(1, 65536), (64, 65536), (2, 20000), (1, 8 * 65535 + 1), (100, 16384)]


@pytest.mark.parametrize("rows,width", FEW_SHAPES, ids=[f"R{r}_W{w}" for r, w in FEW_SHAPES])
@DET
def test_few_keys_on_the_kth_prefix(device, rows, width, deterministic):
    """Every FEW_ON_PREFIX case in turn, with and without the keys that fill the first digit's bin,
    k = 2048 and 512: the k-th key among the few that share its first two digits, equal ones included."""
    g = torch.Generator().manual_seed(rows * width)
    cases = 2 * len(FEW_ON_PREFIX)
    for k in (2048, 512):
        for first in range(0, cases, rows):  # every case in some row
            logits = torch.stack([few_on_prefix_row(width, k, first + r, g) for r in range(rows)])
            seq_lens = torch.full((rows,), width, dtype=torch.int32)
            out = run_decode(logits.to(device), 1, seq_lens.to(device), k, deterministic)
            check_decode(logits, 1, seq_lens, k, out, deterministic)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_logits_layouts(device, layout):
    g = torch.Generator().manual_seed(9)
    dense = torch.randn(8, 777, generator=g)
    logits = strided_logits(dense.to(device), layout)
    seq_lens = i32([[777, 100], [600, 0], [64, 65], [776, 778]], device)
    out = run_decode(logits, 2, seq_lens, 64, True)
    check_decode(dense, 2, seq_lens, 64, out, True)


def test_columns_past_length_are_not_read(device):
    """Padding past each row's length (graph padding up to the captured width) is never read."""
    g = torch.Generator().manual_seed(4)
    logits = torch.randn(4, 3000, generator=g)
    seq_lens = i32([1000, 2600], device)
    lengths = ref.row_windows_decode(4, 3000, 2, seq_lens.cpu())[1]
    col = torch.arange(3000)
    dirty = torch.where(col >= lengths[:, None], float("inf"), logits)
    out = run_decode(dirty.to(device), 2, seq_lens, 512, True)
    check_decode(logits, 2, seq_lens, 512, out, True)


@DET
def test_deterministic_over_launches(device, deterministic):
    logits = pattern_rows("small_ints", 8, 5000, seed=3).to(device)
    seq_lens = i32([5000, 4000, 2100, 3000], device)
    first = run_decode(logits, 2, seq_lens, 2048, deterministic)
    check_decode(logits, 2, seq_lens, 2048, first, deterministic)
    for _ in range(100 if deterministic else 20):
        again = run_decode(logits, 2, seq_lens, 2048, deterministic)
        assert torch.equal(again if deterministic else again.sort(dim=1).values,
                           first if deterministic else first.sort(dim=1).values)


def test_indices_view_of_wider_buffer(device):
    g = torch.Generator().manual_seed(6)
    logits = torch.randn(8, 300, generator=g)
    seq_lens = i32([0, 3, 150, 300], device)
    buffer = poisoned((10, 40), device)
    view = buffer[1:9, :32]
    run_decode(logits.to(device), 2, seq_lens, 32, False, indices=view)
    check_decode(logits, 2, seq_lens, 32, view, False)
    outside = torch.ones(buffer.shape, dtype=torch.bool)
    outside[1:9, :32] = False
    assert bool((buffer.cpu()[outside] == SENTINEL).all()), "wrote outside the indices view"


@pytest.mark.parametrize("seq_shape", [(0,), (0, 2)], ids=["1d", "2d"])
def test_zero_rows(device, seq_shape):
    out = run_decode(torch.randn(0, 10, device=device), 2, torch.zeros(seq_shape, dtype=torch.int32, device=device),
                     4, False)
    assert out.shape == (0, 4)


def test_wrapper(device):
    from dsv4ext.ops import top_k_per_row_decode as wrapper

    logits = torch.randn(4, 90, device=device)
    seq_lens = i32([90, 40], device)
    out = wrapper(logits, 2, seq_lens, 16, deterministic=True)
    check_decode(logits, 2, seq_lens, 16, out, True)


# ---- validation ---------------------------------------------------------------------------------

def _args(device, batch=3, next_n=2, width=32, k=8):
    return dict(logits=torch.randn(batch * next_n, width, device=device), next_n=next_n,
                seq_lens=torch.full((batch,), width, dtype=torch.int32, device=device),
                indices=torch.empty(batch * next_n, k, dtype=torch.int32, device=device), top_k=k)


BAD = {
    "logits_dtype": (lambda a: a.update(logits=a["logits"].half()), ["logits", "Float", "Half"]),
    "logits_1d": (lambda a: a.update(logits=a["logits"][0]), ["logits", "2-D"]),
    "indices_dtype": (lambda a: a.update(indices=a["indices"].long()), ["indices", "Int", "Long"]),
    "indices_shape": (lambda a: a.update(indices=a["indices"][:, :5]), ["indices", "[6, 8]", "[6, 5]"]),
    "top_k_zero": (lambda a: a.update(top_k=0, indices=a["indices"][:, :0]), ["top_k", ">= 1", "0"]),
    "indices_stride1": (lambda a: a.update(indices=a["indices"].new_empty(6, 16)[:, ::2]),
                        ["indices", "stride(1) == 1", "2"]),
    "indices_stride0_lt_k": (lambda a: a.update(indices=a["indices"].new_empty(64).as_strided((6, 8), (4, 1))),
                             ["indices", "stride(0) >= top_k", "4"]),
    "next_n_zero": (lambda a: a.update(next_n=0), ["next_n", ">= 1", "0"]),
    "next_n_negative": (lambda a: a.update(next_n=-1), ["next_n", ">= 1", "-1"]),
    "rows_not_multiple": (lambda a: a.update(next_n=4, seq_lens=a["seq_lens"][:1]), ["next_n", "6", "4", "multiple"]),
    "seq_lens_dtype": (lambda a: a.update(seq_lens=a["seq_lens"].long()), ["seq_lens", "Int", "Long"]),
    "seq_lens_1d_len": (lambda a: a.update(seq_lens=a["seq_lens"].new_zeros(6)), ["seq_lens", "[3]", "[3, 2]", "[6]"]),
    "seq_lens_2d_cols": (lambda a: a.update(seq_lens=a["seq_lens"].new_zeros(3, 3)), ["seq_lens", "[3, 2]", "[3, 3]"]),
    "seq_lens_b1_next_n2": (lambda a: a.update(seq_lens=a["seq_lens"].new_zeros(3, 1)), ["seq_lens", "[3, 2]", "[3, 1]"]),
    "seq_lens_3d": (lambda a: a.update(seq_lens=a["seq_lens"].new_zeros(3, 2, 1)), ["seq_lens", "[3, 2, 1]"]),
    "seq_lens_strided": (lambda a: a.update(seq_lens=a["seq_lens"].new_zeros(2, 3).t()), ["seq_lens", "contiguous"]),
}


@pytest.mark.parametrize("case", list(BAD))
def test_rejects_bad_arguments(device, case):
    args = _args(device)
    mutate, words = BAD[case]
    mutate(args)
    assert_rejects(lambda: OP(args["logits"], args["next_n"], args["seq_lens"], args["indices"], args["top_k"], False),
                   "top_k_per_row_decode", words)


@pytest.mark.gpu
@pytest.mark.parametrize("arg", ["seq_lens", "indices"])
def test_rejects_mixed_devices(arg):
    args = _args("cuda")
    args[arg] = args[arg].cpu()
    with pytest.raises(RuntimeError, match=f"{arg} must be on the same device as logits"):
        OP(args["logits"], args["next_n"], args["seq_lens"], args["indices"], args["top_k"], False)


# ---- torch.library / fake tensors ---------------------------------------------------------------

@pytest.mark.parametrize("two_d", [False, True], ids=["1d", "2d"])
def test_opcheck(device, two_d):
    next_n = 2 if two_d else 4
    seq_lens = i32([[3, 40], [20, 0]] if two_d else [3, 40, 20, 0], device)
    logits = torch.randn(seq_lens.shape[0] * next_n, 40, device=device)
    indices = torch.empty(logits.shape[0], 8, dtype=torch.int32, device=device)
    torch.library.opcheck(OP.default, (logits, next_n, seq_lens, indices, 8, True))


def test_fake_tensor_mode():
    with FakeTensorMode():
        logits = torch.randn(6, 100)
        indices = torch.empty(6, 16, dtype=torch.int32)
        OP(logits, 3, torch.zeros(2, dtype=torch.int32), indices, 16, False)
        OP(logits, 3, torch.zeros(2, 3, dtype=torch.int32), indices, 16, True)
        assert indices.shape == (6, 16)
        with pytest.raises(Exception, match="top_k"):
            OP(logits, 3, torch.zeros(2, dtype=torch.int32), indices, 4, True)


# ---- CUDA only ----------------------------------------------------------------------------------

@pytest.mark.gpu
def test_no_host_sync():
    args = _args("cuda", batch=4, next_n=2, width=70000, k=2048)
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        OP(args["logits"], 2, args["seq_lens"], args["indices"], 2048, True)
    finally:
        torch.cuda.set_sync_debug_mode(0)


@pytest.mark.gpu
@pytest.mark.parametrize("two_d", [False, True], ids=["1d", "2d"])
def test_cuda_graph_replay_with_other_lengths(two_d):
    """Captured at a padded width of 262144 (stride frozen, aiter PR #3773); replayed with live
    lengths from 0 to the full width: equal to eager and to the reference."""
    batch, next_n, width, k = 4, 2, 262144, 2048
    logits = torch.zeros(batch * next_n, width, device="cuda")
    seq_lens = torch.zeros((batch, next_n) if two_d else (batch,), dtype=torch.int32, device="cuda")
    indices = poisoned((batch * next_n, k), "cuda")
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        OP(logits, next_n, seq_lens, indices, k, True)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        OP(logits, next_n, seq_lens, indices, k, True)
    g = torch.Generator().manual_seed(8)
    for pattern, live in [("normal", 8192), ("small_ints", 100), ("band_1_1245", 16512), ("normal", width)]:
        new_logits = pattern_rows(pattern, batch * next_n, width, seed=live)
        new_lens = torch.randint(0, live + 1, tuple(seq_lens.shape), generator=g, dtype=torch.int32)
        new_lens.view(-1)[0] = live
        logits.copy_(new_logits)
        seq_lens.copy_(new_lens)
        indices.fill_(SENTINEL)
        graph.replay()
        eager = run_decode(logits, next_n, seq_lens, k, True)
        torch.cuda.synchronize()
        check_decode(new_logits, next_n, new_lens, k, indices, True)
        assert torch.equal(indices, eager)
