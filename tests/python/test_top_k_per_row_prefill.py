"""top_k_per_row_prefill (shared/spec/topk.md §2, §3, §9): windows, value patterns, ties, special
values, strides, output views, validation, opcheck / fake tensors and (GPU) CUDA graphs."""

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from dsv4ext import reference as ref
from topk_cases import (FEW_ON_PREFIX, LAYOUTS, assert_rejects, PATTERNS, SENTINEL, check_prefill, few_on_prefix_row,
                        i32, pattern_rows, poisoned, random_windows, run_prefill, strided_logits)

OP = torch.ops.dsv4ext.top_k_per_row_prefill
NAN, INF = float("nan"), float("inf")
DET = pytest.mark.parametrize("deterministic", [False, True], ids=["default", "det"])


def garbage_outside_windows(logits, row_starts, row_ends):
    """Columns outside each clamped window become +inf / NaN: the indexer leaves them unwritten (§1),
    so reading one there selects a wrong index."""
    s, n = ref.row_windows_prefill(logits.shape[1], row_starts, row_ends)
    col = torch.arange(logits.shape[1])
    outside = (col < s[:, None]) | (col >= (s + n)[:, None])
    junk = torch.where(col % 2 == 0, INF, NAN).expand_as(logits)
    return torch.where(outside, junk, logits)


# (k, width): the tuned sizes, tiny k, k > width (every row shorter than k), and both sides of the
# widest warp-per-row width (2048); k > 2048 on a group of warps (written straight to out).
SIZES = [(1, 24), (7, 60), (512, 1500), (2048, 5000), (512, 300), (512, 2048), (1024, 2049), (3000, 7000)]


@DET
@pytest.mark.parametrize("k,width", SIZES, ids=[f"k{k}_w{w}" for k, w in SIZES])
def test_random_windows(device, k, width, deterministic):
    g = torch.Generator().manual_seed(k + width)
    starts, ends = random_windows(width, k, g)
    logits = garbage_outside_windows(torch.randn(starts.numel(), width, generator=g), starts, ends)
    out = run_prefill(logits.to(device), starts.to(device), ends.to(device), k, deterministic)
    check_prefill(logits, starts, ends, k, out, deterministic)


def test_window_clamping_and_relative_indices(device):
    """Hand-computed windows: indices are relative to the clamped start, lengths clamp to [0, W]."""
    width, k = 40, 3
    #          (start, end)  -> (clamped start, len)
    table = [((5, 25), (5, 20)), ((-6, 10), (0, 10)), ((30, 99), (30, 10)), ((12, 4), (12, 0)),
             ((45, 50), (40, 0)), ((-9, -2), (0, 0)), ((38, 40), (38, 2)), ((0, 40), (0, 40))]
    starts, ends = i32([t[0][0] for t in table]), i32([t[0][1] for t in table])
    s, n = ref.row_windows_prefill(width, starts, ends)
    assert [(a, b) for a, b in zip(s.tolist(), n.tolist())] == [t[1] for t in table]
    logits = torch.arange(width, 0, -1).float().repeat(len(table), 1)  # decreasing: col s wins
    logits[0, 5 + 11], logits[0, 5 + 17] = 100.0, 90.0  # row 0: relative 11 and 17 beat relative 0
    out = run_prefill(logits.to(device), starts.to(device), ends.to(device), k, True).cpu()
    expected = [[0, 11, 17], [0, 1, 2], [0, 1, 2], [-1, -1, -1], [-1, -1, -1], [-1, -1, -1],
                [0, 1, -1], [0, 1, 2]]
    assert out.tolist() == expected


@DET
@pytest.mark.parametrize("layout", LAYOUTS)
def test_logits_layouts(device, layout, deterministic):
    """Non-unit stride(1), unaligned row start and a row pitch that is not a multiple of 4 give the
    result of a contiguous copy; padding columns (inf / NaN) are never read."""
    g = torch.Generator().manual_seed(7)
    k, width = 64, 531
    starts, ends = random_windows(width, k, g)
    dense = torch.randn(starts.numel(), width, generator=g)
    logits = strided_logits(dense.to(device), layout)
    assert torch.equal(logits.cpu(), dense)
    out = run_prefill(logits, starts.to(device), ends.to(device), k, deterministic)
    check_prefill(dense, starts, ends, k, out, deterministic)


def test_zero_strides(device):
    """Broadcast logits (stride 0 along rows or columns) are legal inputs."""
    row = torch.randn(300, device=device)
    starts, ends = i32([0, 7, 100], device), i32([300, 300, 250], device)
    rows_bcast = row.expand(3, 300)
    out = run_prefill(rows_bcast, starts, ends, 32, True)
    check_prefill(rows_bcast.contiguous(), starts, ends, 32, out, True)
    cols_bcast = torch.randn(3, 1, device=device).expand(3, 300)  # every value tied: lowest indices
    out = run_prefill(cols_bcast, starts, ends, 32, True)
    assert torch.equal(out.cpu(), torch.arange(32, dtype=torch.int32).repeat(3, 1))


@pytest.mark.parametrize("width", [8200, 4096, 2048], ids=["block_rows", "group_rows", "warp_rows"])
def test_64bit_row_offsets(device, width):
    """Row 1 starts 2^31 elements into the buffer (8 GiB of untouched virtual memory on the CPU):
    32-bit offset arithmetic would read row 0 or fault."""
    try:
        big = torch.empty(2**31 + width, device=device)
    except (RuntimeError, MemoryError):
        pytest.skip("cannot reserve 8 GiB")
    g = torch.Generator().manual_seed(1)
    dense = torch.randn(2, width, generator=g)
    big[:width] = dense[0].to(device)
    big[2**31:] = dense[1].to(device)
    logits = big.as_strided((2, width), (2**31, 1))
    starts, ends = i32([0, 5], device), i32([width, width - 96], device)
    out = run_prefill(logits, starts, ends, 512, True)
    check_prefill(dense, starts, ends, 512, out, True)


@DET
@pytest.mark.parametrize("layout", ["contiguous", "every_other_column"])
@pytest.mark.parametrize("width", [300, 700, 2048, 3001, 8192], ids=lambda w: f"w{w}")
@pytest.mark.parametrize("many", [True, False], ids=["many_rows", "few_rows"])
def test_warp_rows(device, width, layout, many, deterministic):
    """Many rows: more than the warp-per-row kernel keeps resident (1584 warps on an H100 at 2048
    columns): each warp (or group of 2 or 4 warps) walks several rows with the next one's copy in
    flight, at each keys-per-lane size (widths 300 / 700 / 2048: one warp of 16 / 32 / 64 keys a lane;
    3001: two warps of 64; 8192: four of 64). Few rows (no more than the SMs): 700 / 2048 / 3001 / 8192 on
    groups of 2 / 4 / 4 / 8 warps of 16 / 16 / 32 / 32 keys a lane. Windows of every length (rows at most k long
    copy nothing and are skipped by the walk), whole rows, aligned and unaligned starts (16-byte copies,
    or 4-byte ones), ties and NaN in some rows."""
    g = torch.Generator().manual_seed(13 + width + many)
    rows = (509 if width > 4096 else 3001) if many else 40  # four-warp groups take fewer than 512 rows
    k = 64
    dense = torch.randn(rows, width, generator=g)
    dense[::7] = torch.randint(0, 4, (len(range(0, rows, 7)), width), generator=g).float()  # massive ties
    dense[3::11, ::5] = NAN
    lens = torch.randint(0, width + 1, (rows,), generator=g)
    lens[::5] = torch.randint(0, k + 1, (len(range(0, rows, 5)),), generator=g)
    lens[2::5] = width
    starts = (torch.rand(rows, generator=g) * (width - lens + 1)).floor().to(torch.int64)
    starts[::3] = starts[::3] // 4 * 4  # 16-byte aligned in the contiguous layout
    starts, ends = i32(starts.tolist()), i32((starts + lens).tolist())
    logits = strided_logits(dense.to(device), layout)
    out = run_prefill(logits, starts.to(device), ends.to(device), k, deterministic)
    check_prefill(dense, starts, ends, k, out, deterministic)


PATTERN_KS = {"lesson1_2000x2_5000band": [2048], "lesson1_100win_8220zeros": [2048]}
PATTERN_CASES = [(p, k) for p in PATTERNS for k in PATTERN_KS.get(p, [512, 2048])]


@DET
@pytest.mark.parametrize("width", [10000, 6000, 2048], ids=["w10000_block_rows", "w6000_group_rows", "w2048_warp_rows"])
@pytest.mark.parametrize("pattern,k", PATTERN_CASES, ids=[f"{p}-k{k}" for p, k in PATTERN_CASES])
def test_value_patterns(device, pattern, k, width, deterministic):
    """§9 rows that break radix selects: all-equal, narrow bands, top 22 bits shared, massive ties,
    ReLU rows (few winners, thousands of zeros) and both §7 lesson-1 inputs (full window in row 0);
    on block rows (10000), group rows (6000: four warps) and warp rows (2048), with k halved where it
    would take whole rows."""
    logits = pattern_rows(pattern, 3, width, seed=k)
    k = min(k, width // 2)
    width = logits.shape[1]
    starts, ends = i32([0, 1, width // 3]), i32([width, width - 2, width])
    out = run_prefill(logits.to(device), starts.to(device), ends.to(device), k, deterministic)
    check_prefill(logits, starts, ends, k, out, deterministic)


WIDE = [(16385, "band_1_1245"), (16512, "band_1_1245"), (16512, "small_ints"), (200_001, "normal")]


@pytest.mark.parametrize("width,pattern", WIDE, ids=[f"{p}-w{w}" for w, p in WIDE])
def test_wide_rows(device, width, pattern):
    """Widths just past 16384 (vLLM #51782 lost up to 2047/2048 values at 16512) and >= 200 000."""
    logits = pattern_rows(pattern, 2, width, seed=width)
    starts, ends = i32([0, 129]), i32([width, width])
    out = run_prefill(logits.to(device), starts.to(device), ends.to(device), 2048, True)
    check_prefill(logits, starts, ends, 2048, out, True)


def comb_rows(rows: int, width: int, period: int, lead: int, high_first: bool, g: torch.Generator) -> torch.Tensor:
    """Normal rows whose large values (spread over 20 octaves) fill the first `lead` columns of every
    `period` (high_first) or the rest of it."""
    dense = torch.randn(rows, width, generator=g)
    high = 2.0 ** (10 + 20 * torch.rand(rows, width, generator=g))
    in_lead = torch.arange(width) % period < lead
    return torch.where(in_lead if high_first else ~in_lead, high, dense)


# (width, k): the CUDA path samples the first 512 columns of each of 16 equal chunks of a row (the
# first group of each warp, file comment of csrc/cuda/topk.cu), so combs of period width / 16 with
# a 512-wide lead put the large values only inside the sample (the threshold lands above the k-th
# value: fewer than k candidates) or only outside it (far too many candidates: segments overflow).
COMBS = [(32768, 2048), (131072, 1024), (65536, 512), (8192, 512)]


@DET
@pytest.mark.parametrize("high_first", [True, False], ids=["inside_sample", "outside_sample"])
@pytest.mark.parametrize("width,k", COMBS, ids=[f"w{w}_k{k}" for w, k in COMBS])
def test_sample_adversaries(device, width, k, high_first, deterministic):
    """Rows built to mislead a sampled threshold: the exact fallbacks must give the same answer."""
    g = torch.Generator().manual_seed(width + k + high_first)
    rows = 512 if device == "cuda" else 4  # >= 512 rows: the launch shape of one block per row
    logits = comb_rows(rows, width, width // 16, 512, high_first, g)
    starts = i32([0, 1, 3, 0] * (rows // 4))
    ends = i32([width, width, width - 5, width // 2 + 7] * (rows // 4))
    out = run_prefill(logits.to(device), starts.to(device), ends.to(device), k, deterministic)
    check_prefill(logits, starts, ends, k, out, deterministic)


def many_pattern_rows(rows: int, width: int, g: torch.Generator) -> torch.Tensor:
    """Rows cycling through the width-sized value patterns, every 5th all negative (the k-th value's
    first digit sits below every positive bin: a pick walks the whole histogram down), every 7th
    with NaN of both signs, +-inf and -0.0 sprinkled in."""
    names = [p for p in PATTERNS if PATTERNS[p](64, torch.Generator()).numel() == 64]
    out = torch.stack([PATTERNS[names[r % len(names)]](width, g) for r in range(rows)])
    out[::5] = -1.0 - torch.rand(out[::5].shape, generator=g)
    special = torch.tensor([NAN, -NAN, INF, -INF, -0.0])
    for r in range(0, rows, 7):
        pos = torch.randperm(width, generator=g)[:50]
        out[r, pos] = special[torch.randint(0, 5, (50,), generator=g)]
    return out


@DET
@pytest.mark.parametrize("width", [8000, 8200, 16500],
                         ids=["six_blocks_an_sm", "four_blocks_8200", "four_blocks_16500"])
def test_many_rows_block_kernels(device, width, deterministic):
    """>= 512 rows of 4097-8192 columns (six 256-thread blocks an SM; one warp picks each digit,
    walking the histogram from the top) or more (four, a CUB scan): every value pattern, with whole,
    offset and short windows."""
    g = torch.Generator().manual_seed(width)
    rows, k = (512 if device == "cuda" else 16), 1024
    logits = many_pattern_rows(rows, width, g)
    starts = i32([0, 1, 3, 0, 17, 0, 0, 9] * (rows // 8))
    ends = i32([width, width, width - 5, width // 2 + 7, width, k - 3, k + 1, width - 1] * (rows // 8))
    out = run_prefill(logits.to(device), starts.to(device), ends.to(device), k, deterministic)
    check_prefill(logits, starts, ends, k, out, deterministic)


@DET
@pytest.mark.parametrize("width", [8000, 16500], ids=["six_blocks_an_sm", "four_blocks"])
def test_few_keys_on_the_kth_prefix(device, width, deterministic):
    """The block kernels' rows (>= 512 of them) cycling through every FEW_ON_PREFIX case, with and
    without the keys that fill the first digit's bin: the k-th key among the few that share its
    first two digits, equal ones included."""
    g = torch.Generator().manual_seed(width)
    rows, k = (512 if device == "cuda" else 2 * len(FEW_ON_PREFIX)), 2048
    logits = torch.stack([few_on_prefix_row(width, k, r, g) for r in range(rows)])
    starts, ends = i32([0] * rows), i32([width] * rows)
    out = run_prefill(logits.to(device), starts.to(device), ends.to(device), k, deterministic)
    check_prefill(logits, starts, ends, k, out, deterministic)


# Hand-checked rows: (values, k, expected indices in ascending order). Each runs with 3 garbage
# columns before its window, so the expectations are also relative indices.
SPECIAL = {
    "ties_lowest_index_wins": ([0.0] * 10 + [1.0] + [0.0] * 39 + [1.0] * 2, 6, [0, 1, 2, 10, 50, 51]),
    "all_equal": ([0.5] * 20, 4, [0, 1, 2, 3]),
    "signed_zero_tie": ([-1.0, 0.0, -0.0, -0.0, 0.0, -2.0], 3, [1, 2, 3]),
    "nan_below_neg_inf": ([NAN, 1.0, -NAN, 2.0, -INF, 3.0, NAN], 4, [1, 3, 4, 5]),
    "nan_only_when_short": ([NAN, 5.0, NAN, -NAN, 4.0, NAN], 4, [0, 1, 2, 4]),
    "neg_inf_is_candidate": ([-INF, 1.0, -INF, -INF, 2.0], 4, [0, 1, 2, 4]),
    "pos_inf_beats_nan": ([NAN, 1e38, -NAN, INF], 1, [3]),
    "beyond_fp16_range": ([65504.0, 65505.0, 7e4, -7e4, 1e30, -1e30, 65520.0, INF, 65504.0], 5, [1, 2, 4, 6, 7]),
    "fp16_saturation_order": ([65504.0, 65520.0, 1e5, 65536.0], 2, [2, 3]),
    "subnormals": ([1e-45, -1e-45, 0.0, -0.0, 1e-40, -1e-40], 2, [0, 4]),
    "all_nan": ([NAN, -NAN, NAN, NAN], 2, [0, 1]),
    "all_neg_inf": ([-INF] * 5, 3, [0, 1, 2]),
}


@DET
@pytest.mark.parametrize("case", list(SPECIAL))
def test_special_values(device, case, deterministic):
    values, k, expected = SPECIAL[case]
    pad = 3
    logits = torch.tensor([[INF, NAN, 1e30] + values + [INF]])
    starts, ends = i32([pad]), i32([pad + len(values)])
    out = run_prefill(logits.to(device), starts.to(device), ends.to(device), k, deterministic).cpu()[0]
    got = out.tolist() if deterministic else sorted(out.tolist())
    assert got == expected


@DET
def test_random_nan_inf_rows(device, deterministic):
    """Rows with NaN of both signs and payloads, +-inf and -0.0; some with fewer than k non-NaN
    values. NaN is chosen only to fill up to k, after every number and -inf."""
    g = torch.Generator().manual_seed(3)
    rows, width, k = 6, 2000, 512
    logits = torch.randn(rows, width, generator=g)
    u = torch.rand(rows, width, generator=g)
    nan_share = torch.tensor([0.1, 0.3, 0.8, 0.9, 0.99, 1.0])[:, None]
    payload_nan = torch.tensor([0x7FC00001, 0xFFC00000 - 2**32, 0x7F800001, 0xFFFFFFFF - 2**32],
                               dtype=torch.int32).view(torch.float32)
    logits = torch.where(u < nan_share, payload_nan[torch.randint(0, 4, (rows, width), generator=g)], logits)
    special = torch.tensor([INF, -INF, -0.0, 0.0])[torch.randint(0, 4, (rows, width), generator=g)]
    logits = torch.where((u > 0.95) & (u < 0.99), special, logits)
    starts, ends = i32([0, 10, 0, 5, 0, 0]), i32([width] * rows)
    out = run_prefill(logits.to(device), starts.to(device), ends.to(device), k, deterministic)
    check_prefill(logits, starts, ends, k, out, deterministic)
    for r in range(rows):
        window = logits[r, int(starts[r]):]
        chosen_nan = int(window[out[r].cpu().long()].isnan().sum())
        assert chosen_nan == max(0, k - int((~window.isnan()).sum())), f"row {r}"


@DET
def test_deterministic_over_launches(device, deterministic):
    """The set never changes (ties to the lowest index); deterministic=True is also bit-identical
    over 100 launches and ascending (vLLM PR #54394 saw the set flip on 12 % of relaunches)."""
    logits = pattern_rows("small_ints", 8, 4096, seed=11)
    width = logits.shape[1]
    starts, ends = i32([0, 1, 2, 3, 100, 0, 7, 9]).to(device), i32([width] * 8).to(device)
    logits = logits.to(device)
    first = run_prefill(logits, starts, ends, 512, deterministic)
    check_prefill(logits, starts, ends, 512, first, deterministic)
    for _ in range(100 if deterministic else 20):
        again = run_prefill(logits, starts, ends, 512, deterministic)
        if deterministic:
            assert torch.equal(again, first)
        else:
            assert torch.equal(again.sort(dim=1).values, first.sort(dim=1).values)
    if deterministic:
        assert bool((first[:, 1:] > first[:, :-1]).all())


@pytest.mark.parametrize("k", [7, 512])
def test_indices_view_of_wider_buffer(device, k):
    """buffer[1:R+1, :k] of a wider, taller buffer: every slot of the view is written, nothing
    outside it (vLLM writes row r at r*k, §7 lesson 2)."""
    g = torch.Generator().manual_seed(k)
    width = 3 * k
    starts, ends = random_windows(width, k, g)
    rows = starts.numel()
    logits = torch.randn(rows, width, generator=g)
    buffer = poisoned((rows + 2, k + 5), device)
    view = buffer[1:rows + 1, :k]
    run_prefill(logits.to(device), starts.to(device), ends.to(device), k, False, indices=view)
    check_prefill(logits, starts, ends, k, view, False)
    outside = torch.ones(buffer.shape, dtype=torch.bool)
    outside[1:rows + 1, :k] = False
    assert bool((buffer.cpu()[outside] == SENTINEL).all()), "wrote outside the indices view"


@pytest.mark.parametrize("rows,width", [(0, 16), (0, 0), (3, 0)], ids=["R0", "R0_W0", "W0"])
def test_empty(device, rows, width):
    logits = torch.randn(rows, width, device=device)
    lengths = torch.full((rows,), 5, dtype=torch.int32, device=device)
    out = run_prefill(logits, torch.zeros_like(lengths), lengths, 4, False)
    assert out.shape == (rows, 4) and bool((out == -1).all())


def test_wrapper_allocates_and_fills_given_buffer(device):
    from dsv4ext.ops import top_k_per_row_prefill as wrapper

    logits = torch.randn(3, 50, device=device)
    starts, ends = i32([0, 5, 10], device), i32([50, 40, 12], device)
    out = wrapper(logits, starts, ends, 4, deterministic=True)
    check_prefill(logits, starts, ends, 4, out, True)
    buf = poisoned((3, 4), device)
    assert wrapper(logits, starts, ends, 4, indices=buf, deterministic=True) is buf
    assert torch.equal(buf, out)


# ---- validation: RuntimeError naming the argument, with expected and actual -------------------

def _args(device, rows=4, width=32, k=8):
    return dict(logits=torch.randn(rows, width, device=device),
                row_starts=torch.zeros(rows, dtype=torch.int32, device=device),
                row_ends=torch.full((rows,), width, dtype=torch.int32, device=device),
                indices=torch.empty(rows, k, dtype=torch.int32, device=device), top_k=k)


BAD = {
    "logits_dtype": (lambda a: a.update(logits=a["logits"].double()), ["logits", "Float", "Double"]),
    "logits_1d": (lambda a: a.update(logits=a["logits"][0]), ["logits", "2-D", "[32]"]),
    "logits_3d": (lambda a: a.update(logits=a["logits"][None]), ["logits", "2-D", "[1, 4, 32]"]),
    "logits_width_2p31": (lambda a: a.update(logits=torch.zeros(4, 1, device=a["logits"].device).expand(4, 2**31)),
                          ["logits.shape[1]", "2^31", "2147483648"]),
    "indices_dtype": (lambda a: a.update(indices=a["indices"].long()), ["indices", "Int", "Long"]),
    "indices_1d": (lambda a: a.update(indices=a["indices"][0]), ["indices", "2-D", "[8]"]),
    "indices_rows": (lambda a: a.update(indices=a["indices"][:3]), ["indices", "[4, 8]", "[3, 8]"]),
    "top_k_mismatch": (lambda a: a.update(top_k=7), ["indices", "[4, 7]", "[4, 8]"]),
    "top_k_zero": (lambda a: a.update(top_k=0, indices=a["indices"][:, :0]), ["top_k", ">= 1", "0"]),
    "top_k_negative": (lambda a: a.update(top_k=-2), ["top_k", ">= 1", "-2"]),
    "indices_stride1": (lambda a: a.update(indices=a["indices"].new_empty(4, 16)[:, ::2]),
                        ["indices", "stride(1) == 1", "2"]),
    "indices_stride0_lt_k": (lambda a: a.update(indices=a["indices"].new_empty(64).as_strided((4, 8), (5, 1))),
                             ["indices", "stride(0) >= top_k", "5"]),
    "row_starts_dtype": (lambda a: a.update(row_starts=a["row_starts"].long()), ["row_starts", "Int", "Long"]),
    "row_starts_shape": (lambda a: a.update(row_starts=a["row_starts"].new_zeros(5)), ["row_starts", "[4]", "[5]"]),
    "row_starts_2d": (lambda a: a.update(row_starts=a["row_starts"][None]), ["row_starts", "[4]", "[1, 4]"]),
    "row_starts_strided": (lambda a: a.update(row_starts=a["row_starts"].new_zeros(8)[::2]),
                           ["row_starts", "contiguous"]),
    "row_ends_dtype": (lambda a: a.update(row_ends=a["row_ends"].float()), ["row_ends", "Int", "Float"]),
    "row_ends_shape": (lambda a: a.update(row_ends=a["row_ends"][:3]), ["row_ends", "[4]", "[3]"]),
}


@pytest.mark.parametrize("case", list(BAD))
def test_rejects_bad_arguments(device, case):
    args = _args(device)
    mutate, words = BAD[case]
    mutate(args)
    assert_rejects(lambda: OP(args["logits"], args["row_starts"], args["row_ends"], args["indices"], args["top_k"],
                              False), "top_k_per_row_prefill", words)


@pytest.mark.gpu
@pytest.mark.parametrize("arg", ["row_starts", "row_ends", "indices"])
def test_rejects_mixed_devices(arg):
    args = _args("cuda")
    args[arg] = args[arg].cpu()
    with pytest.raises(RuntimeError, match=f"{arg} must be on the same device as logits"):
        OP(args["logits"], args["row_starts"], args["row_ends"], args["indices"], args["top_k"], False)


# ---- torch.library / fake tensors ---------------------------------------------------------------

@DET
def test_opcheck(device, deterministic):
    g = torch.Generator().manual_seed(0)
    starts, ends = random_windows(40, 8, g, extra=2)
    logits = torch.randn(starts.numel(), 40, generator=g).to(device)
    indices = torch.empty(starts.numel(), 8, dtype=torch.int32, device=device)
    torch.library.opcheck(OP.default, (logits, starts.to(device), ends.to(device), indices, 8, deterministic))


def test_fake_tensor_mode():
    with FakeTensorMode():
        logits = torch.randn(5, 100)
        lengths = torch.zeros(5, dtype=torch.int32)
        indices = torch.empty(5, 16, dtype=torch.int32)
        OP(logits, lengths, lengths, indices, 16, True)
        assert indices.shape == (5, 16) and indices.dtype == torch.int32
        with pytest.raises(Exception, match="top_k"):
            OP(logits, lengths, lengths, indices, 8, True)


# ---- CUDA only ----------------------------------------------------------------------------------

@pytest.mark.gpu
def test_no_host_sync():
    args = _args("cuda", rows=8, width=5000, k=2048)
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        OP(args["logits"], args["row_starts"], args["row_ends"], args["indices"], 2048, True)
    finally:
        torch.cuda.set_sync_debug_mode(0)


@pytest.mark.gpu
@DET
def test_cuda_graph_replay_with_other_lengths(deterministic):
    """Capture once at the padded width, replay with other windows, ties and masks: equal to eager
    and to the reference (the algorithm is picked from the live length, §2 Execution)."""
    rows, width, k = 16, 20000, 2048
    logits = torch.zeros(rows, width, device="cuda")
    starts = torch.zeros(rows, dtype=torch.int32, device="cuda")
    ends = torch.full((rows,), width, dtype=torch.int32, device="cuda")
    indices = poisoned((rows, k), "cuda")
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        OP(logits, starts, ends, indices, k, deterministic)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        OP(logits, starts, ends, indices, k, deterministic)
    g = torch.Generator().manual_seed(5)
    for pattern, length in [("normal", 100), ("small_ints", 3000), ("band_1_1245", 16512),
                            ("relu_few_winners", 9000), ("normal", width)]:
        new_logits = pattern_rows(pattern, rows, width, seed=length)
        new_starts, new_ends = random_windows(length, k, g, extra=rows - 11)
        logits.copy_(new_logits)
        starts.copy_(new_starts)
        ends.copy_(new_ends)
        indices.fill_(SENTINEL)
        graph.replay()
        eager = run_prefill(logits, starts, ends, k, deterministic)
        torch.cuda.synchronize()
        check_prefill(new_logits, new_starts, new_ends, k, indices, deterministic)
        if deterministic:
            assert torch.equal(indices, eager)


# Wide rows with >= 512 rows: one 512-thread block streams each row (csrc/cuda/topk.cu); the ties
# rows fill every eighth of the row, where warp chunks and sample windows meet.
LONG = [(34817, 2048, "contiguous"), (69633, 1024, "pitch_w_plus_3"), (139265, 512, "every_other_column"),
        (278529, 1024, "contiguous")]


@pytest.mark.gpu
@DET
@pytest.mark.parametrize("width,k,layout", LONG, ids=[f"w{w}_k{k}_{lay}" for w, k, lay in LONG])
def test_long_rows(width, k, layout, deterministic):
    """512 long rows: ties at the k-th value straddling every slice boundary (full windows), NaN /
    +-inf rows, massive ties, random and clamped windows, strided logits."""
    g = torch.Generator().manual_seed(width)
    rows = 512
    dense = torch.randn(rows, width, generator=g)
    col = torch.arange(width)
    near_boundary = torch.zeros(width, dtype=torch.bool)
    for b in range(1, 8):
        near_boundary |= (col - width * b // 8).abs() < 2500
    dense[1::4] = torch.where(near_boundary, torch.tensor(2.75), dense[1::4])
    u = torch.rand(rows // 4, width, generator=g)
    special = torch.tensor([NAN, -NAN, INF, -INF, -0.0])[torch.randint(0, 5, (rows // 4, width), generator=g)]
    dense[2::4] = torch.where(u < 0.3, special, dense[2::4])
    dense[3::4] = torch.randint(-3, 4, (rows // 4, width), generator=g).float()
    starts, ends = random_windows(width, k, g, extra=rows - 11)
    starts[1::4], ends[1::4] = 0, width
    logits = strided_logits(dense.to("cuda"), layout)
    out = run_prefill(logits, starts.to("cuda"), ends.to("cuda"), k, deterministic)
    check_prefill(dense, starts, ends, k, out, deterministic)
