"""ragged_pack (shared/spec/topk.md §6, §9): CSR prefix copy into persistent buffers, clamped lengths,
num_kv mapping, untouched tails, strided dense rows, validation, opcheck / fake tensors and (GPU)
CUDA-graph replay with stable addresses. The schedule's boundaries (csrc/cuda/ragged_pack.cu, one
contiguous row range per resident block, tiles of 512 rows, copy segments of 512 entries): row
counts around multiples of the H100's 264 resident blocks and past one tile per block, R = 1, long
rows spread over the warps, empty rows and an empty total, every int32 alignment of the dense rows,
the lengths and the output, poisoned buffers past the extent; they run on every device."""

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from dsv4ext import ops
from dsv4ext import reference as ref
from topk_cases import SENTINEL, assert_rejects, i32, poisoned

OP = torch.ops.dsv4ext.ragged_pack
INT_MIN, INT_MAX = -(2**31), 2**31 - 1


def pack(dense, lengths, num_kv=-1, fill=-1, spare=7):
    """Runs the op into sentinel-filled buffers `spare` elements larger than needed."""
    rows, width = dense.shape
    indices_out = poisoned((rows * width + spare,), dense.device)
    indptr_out = poisoned((rows + 1 + spare,), dense.device)
    OP(dense, lengths, indices_out, indptr_out, num_kv, fill)
    return indices_out.cpu(), indptr_out.cpu()


def check_pack(dense, lengths, indices_out, indptr_out, num_kv=-1, fill=-1):
    """indptr = [0, clamped cumsum] (so monotone), packed prefix equal to the reference, and every
    element past indptr[R] / indptr_out[R] still holds the sentinel."""
    rows, width = dense.shape
    want_vals, want_ptr = ref.ragged_pack(dense, lengths)
    if num_kv >= 0:  # mapped here in int64: ref.ragged_pack compares int32 with num_kv >= 2^31 wrongly
        v = want_vals.long()
        want_vals = torch.where((v < 0) | (v >= num_kv), fill, v).to(torch.int32)
    clamped = lengths.cpu().long().clamp(0, width)
    assert indptr_out[0] == 0
    assert torch.equal(indptr_out[1:rows + 1].long(), torch.cumsum(clamped, 0)), indptr_out[:rows + 1]
    assert bool((indptr_out[1:rows + 1] >= indptr_out[:rows]).all())
    assert torch.equal(indptr_out[:rows + 1], want_ptr)
    nnz = int(want_ptr[-1])
    assert torch.equal(indices_out[:nnz], want_vals)
    assert bool((indices_out[nnz:] == SENTINEL).all()), "wrote past indptr[R]"
    assert bool((indptr_out[rows + 1:] == SENTINEL).all()), "wrote past indptr_out[R]"


def _random(rows, width, g, lo=-3, hi=None):
    hi = width + 3 if hi is None else hi
    dense = torch.randint(-50, 1000, (rows, width), generator=g, dtype=torch.int32)
    lengths = torch.randint(lo, hi + 1, (rows,), generator=g, dtype=torch.int32)
    return dense, lengths


SHAPES = [(1, 1), (5, 3), (64, 2048), (300, 17), (1000, 1)]


@pytest.mark.parametrize("rows,width", SHAPES, ids=[f"R{r}_W{w}" for r, w in SHAPES])
def test_random_vs_reference(device, rows, width):
    g = torch.Generator().manual_seed(rows * width)
    dense, lengths = _random(rows, width, g)
    lengths[: min(3, rows)] = torch.tensor([0, -5, width + 100], dtype=torch.int32)[: min(3, rows)]
    out = pack(dense.to(device), lengths.to(device))
    check_pack(dense, lengths, *out)


def test_by_hand(device):
    """Padded rows are empty, negative lengths count 0, lengths > W count W, -1 inside a prefix is
    copied (a prefix copy, not a compaction)."""
    dense = i32([[5, -1, 7], [1, 2, 3], [9, 9, 9], [4, 8, -1], [6, 0, 2]], device)
    lengths = i32([2, 0, -4, 99, 1], device)
    indices_out, indptr_out = pack(dense, lengths, spare=2)
    assert indptr_out.tolist() == [0, 2, 2, 2, 5, 6, SENTINEL, SENTINEL]
    assert indices_out[:6].tolist() == [5, -1, 4, 8, -1, 6]
    assert bool((indices_out[6:] == SENTINEL).all())


NUM_KV = [(0, -1), (10, -1), (500, 7), (999, INT_MIN), (2**40, -1), (-1, 123), (-5, 0)]


@pytest.mark.parametrize("num_kv,fill", NUM_KV, ids=[f"kv{k}_fill{f}" for k, f in NUM_KV])
def test_num_kv_mapping(device, num_kv, fill):
    """num_kv >= 0: values outside [0, num_kv) become fill; num_kv < 0: copied unchanged."""
    g = torch.Generator().manual_seed(abs(num_kv) % 1000)
    dense, lengths = _random(40, 64, g)
    edge = min(max(num_kv, 1), INT_MAX)  # num_kv itself (mapped) and num_kv - 1 (kept), when in range
    dense[0, :6] = torch.tensor([INT_MIN, -1, INT_MAX, 0, edge - 1, edge], dtype=torch.int32)
    lengths[0] = 64
    indices_out, indptr_out = pack(dense.to(device), lengths.to(device), num_kv, fill)
    check_pack(dense, lengths, indices_out, indptr_out, num_kv, fill)
    head = indices_out[:6].tolist()
    if num_kv < 0:
        assert head == [INT_MIN, -1, INT_MAX, 0, edge - 1, edge]
    elif num_kv > INT_MAX:
        assert head == [fill, fill, INT_MAX, 0, INT_MAX - 1, INT_MAX]
    else:
        keep = lambda v: v if 0 <= v < num_kv else fill  # noqa: E731
        assert head == [fill, fill, fill, keep(0), keep(edge - 1), fill]


@pytest.mark.parametrize("pitch", [17, 24, 100])
def test_dense_row_stride_larger_than_width(device, pitch):
    """A [:, :W] view of a wider dense buffer: row stride honoured, padding columns never copied."""
    g = torch.Generator().manual_seed(pitch)
    buf = torch.full((30, pitch), -777, dtype=torch.int32)
    dense, lengths = _random(30, 16, g)
    buf[:, :16] = dense
    view = buf.to(device)[:, :16]
    assert view.stride() == (pitch, 1)
    out = pack(view, lengths.to(device))
    check_pack(dense, lengths, *out)
    assert not bool((out[0] == -777).any())


# ---- schedule boundaries ---------------------------------------------------------------------

# Rows around multiples of 132 and 264 (the H100's SMs and resident blocks), R not a multiple of
# the block count, and 264 x 512 + 1 rows (a block owns more than one 512-row tile).
BOUNDARY_ROWS = [1, 2, 131, 132, 133, 263, 264, 265, 527, 529, 1025, 4097, 264 * 512 + 1]


@pytest.mark.parametrize("rows", BOUNDARY_ROWS, ids=[f"R{r}" for r in BOUNDARY_ROWS])
def test_block_and_tile_boundaries(device, rows):
    width = 3 if rows > 10000 else 37
    g = torch.Generator().manual_seed(rows)
    dense, lengths = _random(rows, width, g)
    lengths[::5] = 0  # padding rows inside every block
    out = pack(dense.to(device), lengths.to(device))
    check_pack(dense, lengths, *out)


LONG = [(1, 70000), (3, 20000), (2, 513), (5, 1024)]


@pytest.mark.parametrize("rows,width", LONG, ids=[f"R{r}_W{w}" for r, w in LONG])
def test_long_rows(device, rows, width):
    """Rows of several copy segments (spread over the warps of one block), full and partial."""
    g = torch.Generator().manual_seed(width)
    dense = torch.randint(-5, 1 << 20, (rows, width), generator=g, dtype=torch.int32)
    lengths = torch.tensor([width, width - 1, width // 2 + 1, 1, 0][:rows], dtype=torch.int32)
    out = pack(dense.to(device), lengths.to(device), num_kv=1 << 19, fill=-9)
    check_pack(dense, lengths, *out, num_kv=1 << 19, fill=-9)


def test_empty_rows_and_empty_total(device):
    """Mostly empty rows, then every length <= 0: indptr all 0, indices_out untouched."""
    g = torch.Generator().manual_seed(11)
    dense, lengths = _random(3000, 64, g)
    lengths[lengths % 7 != 0] = 0
    check_pack(dense, lengths, *pack(dense.to(device), lengths.to(device)))
    lengths = -torch.randint(0, 5, (3000,), generator=g, dtype=torch.int32)
    indices_out, indptr_out = pack(dense.to(device), lengths.to(device))
    assert bool((indptr_out[:3001] == 0).all())
    assert bool((indices_out == SENTINEL).all())
    check_pack(dense, lengths, indices_out, indptr_out)


@pytest.mark.parametrize("shift", [0, 1, 2, 3])
@pytest.mark.parametrize("lens", ["multiple_of_4", "random"])
def test_misaligned_pointers(device, shift, lens):
    """Dense rows, lengths and indices_out each start `shift` int32 past a 16-byte boundary (views
    with a storage offset; the row pitch is odd), and the output offsets take every alignment: the
    16-byte paths and their int32 edges (or the int32 fallback) give the same packing."""
    rows, width, pitch = 700, 45, 47
    g = torch.Generator().manual_seed(shift)
    dense_buf = torch.randint(-10, 1 << 20, (rows * pitch + 8,), generator=g, dtype=torch.int32).to(device)
    dense = dense_buf[shift:shift + rows * pitch].view(rows, pitch)[:, :width]
    hi = 40 if lens == "multiple_of_4" else width + 2
    lengths = torch.randint(0, hi + 1, (rows,), generator=g, dtype=torch.int32)
    if lens == "multiple_of_4":
        lengths = lengths // 4 * 4
    lengths_buf = torch.zeros(rows + 8, dtype=torch.int32, device=device)
    lengths_dev = lengths_buf[shift:shift + rows]
    lengths_dev.copy_(lengths.to(device))
    indices_buf = poisoned((rows * width + 16,), device)
    indptr_out = poisoned((rows + 5,), device)
    indices_out = indices_buf[shift:]
    OP(dense, lengths_dev, indices_out, indptr_out, 900, -1)
    check_pack(dense.cpu(), lengths, indices_out.cpu(), indptr_out.cpu(), 900, -1)
    assert bool((indices_buf[:shift].cpu() == SENTINEL).all()), "wrote before indices_out"


def test_64bit_row_offsets(device):
    """dense row 1 starts 2^31 elements into the buffer (8 GiB of untouched virtual memory)."""
    try:
        big = torch.empty(2**31 + 64, dtype=torch.int32, device=device)
    except (RuntimeError, MemoryError):
        pytest.skip("cannot reserve 8 GiB")
    dense = torch.arange(128, dtype=torch.int32).view(2, 64)
    big[:64] = dense[0].to(device)
    big[2**31:] = dense[1].to(device)
    view = big.as_strided((2, 64), (2**31, 1))
    lengths = i32([10, 64])
    out = pack(view, lengths.to(device))
    check_pack(dense, lengths, *out)


@pytest.mark.parametrize("rows,width", [(0, 8), (0, 0), (4, 0)], ids=["R0", "R0_W0", "W0"])
def test_empty(device, rows, width):
    """R = 0 still writes indptr_out[0] = 0; W = 0 gives an all-zero indptr."""
    dense = torch.zeros(rows, width, dtype=torch.int32, device=device)
    lengths = torch.full((rows,), 3, dtype=torch.int32, device=device)
    indices_out, indptr_out = pack(dense, lengths, spare=3)
    assert indptr_out.tolist() == [0] * (rows + 1) + [SENTINEL] * 3
    assert bool((indices_out == SENTINEL).all())


def test_wrapper_returns_fixed_extent_views(device):
    """The wrapper returns (indices_out[:R*W], indptr_out[:R+1]): extents depend on shapes only,
    storage is the caller's buffers (stable addresses under graphs), no host sync needed."""
    g = torch.Generator().manual_seed(2)
    dense, lengths = _random(6, 5, g)
    indices_out = poisoned((100,), device)
    indptr_out = poisoned((20,), device)
    for lens in [lengths, torch.zeros_like(lengths), torch.full_like(lengths, 5)]:
        vals, ptr = ops.ragged_pack(dense.to(device), lens.to(device), indices_out, indptr_out)
        assert vals.shape == (30,) and ptr.shape == (7,)
        assert vals.data_ptr() == indices_out.data_ptr() and ptr.data_ptr() == indptr_out.data_ptr()
        want_vals, want_ptr = ref.ragged_pack(dense, lens)
        assert torch.equal(ptr.cpu(), want_ptr)
        assert torch.equal(vals.cpu()[: int(want_ptr[-1])], want_vals)


def test_pack_of_top_k_output(device):
    """The intended pipeline: decode top-k rows (-1 tails) packed by their valid count."""
    logits = torch.randn(4, 40, device=device)
    seq_lens = i32([3, 40, 0, 17], device)
    topk = ops.top_k_per_row_decode(logits, 1, seq_lens, 8, deterministic=True)
    counts = (topk >= 0).sum(1).to(torch.int32)
    vals, ptr = ops.ragged_pack(topk, counts, poisoned((32,), device), poisoned((5,), device), num_kv=40)
    assert ptr.cpu().tolist() == [0, 3, 11, 11, 19]
    assert bool((vals[:19] >= 0).all())


# ---- validation ---------------------------------------------------------------------------------

def _args(device, rows=4, width=6):
    return dict(dense=torch.zeros(rows, width, dtype=torch.int32, device=device),
                lengths=torch.zeros(rows, dtype=torch.int32, device=device),
                indices_out=torch.empty(rows * width, dtype=torch.int32, device=device),
                indptr_out=torch.empty(rows + 1, dtype=torch.int32, device=device), fill=-1)


BAD = {
    "dense_dtype": (lambda a: a.update(dense=a["dense"].long()), ["dense", "Int", "Long"]),
    "dense_1d": (lambda a: a.update(dense=a["dense"][0]), ["dense", "2-D", "[6]"]),
    "dense_stride1": (lambda a: a.update(dense=a["dense"].new_zeros(4, 12)[:, ::2]), ["dense", "stride(1) == 1", "2"]),
    "dense_stride0_lt_w": (lambda a: a.update(dense=a["dense"].new_zeros(40).as_strided((4, 6), (3, 1))),
                           ["dense", "stride(0) >= its width (6)", "3"]),
    "lengths_dtype": (lambda a: a.update(lengths=a["lengths"].long()), ["lengths", "Int", "Long"]),
    "lengths_shape": (lambda a: a.update(lengths=a["lengths"][:3]), ["lengths", "[4]", "[3]"]),
    "lengths_strided": (lambda a: a.update(lengths=a["lengths"].new_zeros(8)[::2]), ["lengths", "contiguous"]),
    "indices_out_small": (lambda a: a.update(indices_out=a["indices_out"][:23]), ["indices_out", "24", "23"]),
    "indices_out_dtype": (lambda a: a.update(indices_out=a["indices_out"].long()), ["indices_out", "Int", "Long"]),
    "indices_out_2d": (lambda a: a.update(indices_out=a["indices_out"].view(4, 6)), ["indices_out", "1-D", "[4, 6]"]),
    "indices_out_strided": (lambda a: a.update(indices_out=a["indices_out"].new_empty(48)[::2]),
                            ["indices_out", "contiguous"]),
    "indptr_out_small": (lambda a: a.update(indptr_out=a["indptr_out"][:4]), ["indptr_out", "5", "4"]),
    "indptr_out_dtype": (lambda a: a.update(indptr_out=a["indptr_out"].float()), ["indptr_out", "Int", "Float"]),
    "indptr_out_strided": (lambda a: a.update(indptr_out=a["indptr_out"].new_empty(10)[::2]),
                           ["indptr_out", "contiguous"]),
    "fill_too_large": (lambda a: a.update(fill=2**31), ["fill", "int32", "2147483648"]),
    "fill_too_small": (lambda a: a.update(fill=-(2**31) - 1), ["fill", "int32", "-2147483649"]),
}


@pytest.mark.parametrize("case", list(BAD))
def test_rejects_bad_arguments(device, case):
    args = _args(device)
    mutate, words = BAD[case]
    mutate(args)
    assert_rejects(lambda: OP(args["dense"], args["lengths"], args["indices_out"], args["indptr_out"], 5, args["fill"]),
                   "ragged_pack", words)


def test_rejects_2p31_elements():
    """R*W >= 2^31 would overflow the int32 indptr (§6.2). The dense buffer is 8 GiB of untouched
    virtual memory; the check fires before anything is read."""
    try:
        dense = torch.empty((2**15, 2**16), dtype=torch.int32)
    except RuntimeError:
        pytest.skip("cannot reserve 8 GiB of address space")
    small = torch.zeros(1, dtype=torch.int32)
    with pytest.raises(RuntimeError, match=r"dense must have fewer than 2\^31 elements.*\[32768, 65536\]"):
        OP(dense, small, small, small, -1, -1)


@pytest.mark.gpu
@pytest.mark.parametrize("arg", ["lengths", "indices_out", "indptr_out"])
def test_rejects_mixed_devices(arg):
    args = _args("cuda")
    args[arg] = args[arg].cpu()
    with pytest.raises(RuntimeError, match=f"{arg} must be on the same device as dense"):
        OP(args["dense"], args["lengths"], args["indices_out"], args["indptr_out"], 5, args["fill"])


# ---- torch.library / fake tensors ---------------------------------------------------------------

@pytest.mark.parametrize("num_kv", [-1, 50])
def test_opcheck(device, num_kv):
    g = torch.Generator().manual_seed(0)
    dense, lengths = _random(9, 12, g)
    args = (dense.to(device), lengths.to(device), torch.zeros(120, dtype=torch.int32, device=device),
            torch.zeros(12, dtype=torch.int32, device=device), num_kv, -1)
    torch.library.opcheck(OP.default, args)


def test_fake_tensor_mode():
    with FakeTensorMode():
        dense = torch.zeros(5, 8, dtype=torch.int32)
        indices_out = torch.empty(40, dtype=torch.int32)
        indptr_out = torch.empty(6, dtype=torch.int32)
        OP(dense, torch.zeros(5, dtype=torch.int32), indices_out, indptr_out, 10, -1)
        vals, ptr = ops.ragged_pack(dense, torch.zeros(5, dtype=torch.int32), indices_out, indptr_out)
        assert vals.shape == (40,) and ptr.shape == (6,)


# ---- CUDA only ----------------------------------------------------------------------------------

@pytest.mark.gpu
def test_no_host_sync():
    args = _args("cuda", rows=512, width=2048)
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        ops.ragged_pack(args["dense"], args["lengths"], args["indices_out"], args["indptr_out"], 5, -1)
    finally:
        torch.cuda.set_sync_debug_mode(0)


def _replay(graph, buffers, new_dense, new_lengths):
    """Puts new rows into the captured inputs, poisons the outputs and replays the graph."""
    dense, lengths, indices_out, indptr_out = buffers
    dense.copy_(new_dense)
    lengths.copy_(new_lengths)
    indices_out.fill_(SENTINEL)
    indptr_out.fill_(SENTINEL)
    graph.replay()
    torch.cuda.synchronize()


@pytest.mark.gpu
def test_cuda_graph_replay_keeps_buffers():
    """Captured once; replayed with new lengths and values: results equal the reference, the
    buffers' addresses and the returned extents never change, tails stay untouched."""
    rows, width = 192, 1024
    dense = torch.zeros(rows, width, dtype=torch.int32, device="cuda")
    lengths = torch.zeros(rows, dtype=torch.int32, device="cuda")
    indices_out = poisoned((rows * width + 5,), "cuda")
    indptr_out = poisoned((rows + 1 + 5,), "cuda")
    ptrs = (indices_out.data_ptr(), indptr_out.data_ptr())
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        ops.ragged_pack(dense, lengths, indices_out, indptr_out, 900, -1)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        vals, ptr = ops.ragged_pack(dense, lengths, indices_out, indptr_out, 900, -1)
    g = torch.Generator().manual_seed(3)
    for hi in [0, 5, width, width + 50]:
        new_dense, new_lengths = _random(rows, width, g, lo=-2, hi=hi)
        new_lengths[::7] = 0  # padding rows
        _replay(graph, (dense, lengths, indices_out, indptr_out), new_dense, new_lengths)
        assert (indices_out.data_ptr(), indptr_out.data_ptr()) == ptrs
        assert vals.shape == (rows * width,) and ptr.shape == (rows + 1,)
        check_pack(new_dense, new_lengths, indices_out.cpu(), indptr_out.cpu(), 900, -1)


@pytest.mark.gpu
def test_cuda_graph_replay_many_blocks():
    """A capture over many blocks and two tiles per block, replayed with new lengths (padding rows,
    every length empty, every row full): each replay equals the reference, tails untouched."""
    rows, width = 264 * 512 + 77, 5
    dense = torch.zeros(rows, width, dtype=torch.int32, device="cuda")
    lengths = torch.zeros(rows, dtype=torch.int32, device="cuda")
    indices_out = poisoned((rows * width + 5,), "cuda")
    indptr_out = poisoned((rows + 1 + 5,), "cuda")
    ops.ragged_pack(dense, lengths, indices_out, indptr_out)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        ops.ragged_pack(dense, lengths, indices_out, indptr_out)
    g = torch.Generator().manual_seed(5)
    for case in ["random", "empty", "full"]:
        new_dense, new_lengths = _random(rows, width, g)
        if case == "empty":
            new_lengths.zero_()
        elif case == "full":
            new_lengths.fill_(width)
        new_lengths[::9] = 0 if case != "full" else width
        _replay(graph, (dense, lengths, indices_out, indptr_out), new_dense, new_lengths)
        check_pack(new_dense, new_lengths, indices_out.cpu(), indptr_out.cpu())
