"""Case builders and the contract checker shared by the top-k and ragged-pack tests
(shared/spec/topk.md §2-§4, §6, §9).

`check_topk` is the oracle: every row against dsv4ext.reference.top_k_per_row (the exact
"ties to the lowest index" set) and, independently, against torch.topk's value multiset.
"""

import pytest
import torch

from dsv4ext import reference as ref

SENTINEL = 0x7FFFFFFF  # pre-fill of every output buffer: a slot still holding it was never written
I32 = torch.int32


def i32(values, device="cpu") -> torch.Tensor:
    return torch.tensor(values, dtype=I32, device=device)


def poisoned(shape, device="cpu") -> torch.Tensor:
    return torch.full(shape, SENTINEL, dtype=I32, device=device)


def _low_bits_row(width: int, g: torch.Generator, bits: int) -> torch.Tensor:
    """Values sharing the top 32-bits bits: 1.0's pattern with random low `bits` bits."""
    low = torch.randint(0, 1 << bits, (width,), generator=g, dtype=torch.int32)
    return (low | 0x3F800000).view(torch.float32)


def _scatter(width: int, g: torch.Generator, parts) -> torch.Tensor:
    """A row of `width` holding the given value blocks at random positions (the rest 0.0)."""
    row = torch.zeros(width)
    vals = torch.cat([torch.as_tensor(p, dtype=torch.float32) for p in parts])
    pos = torch.randperm(width, generator=g)[: vals.numel()]
    row[pos] = vals
    return row


# Value patterns of §9 that break radix-select implementations. Each maps (width, generator) to a
# row; the lesson-1 rows have their own widths (§7 lesson 1) and ignore `width`.
PATTERNS = {
    "normal": lambda w, g: torch.randn(w, generator=g),
    "all_equal": lambda w, g: torch.full((w,), 0.75),
    "band_1_1245": lambda w, g: 1.0 + 0.245 * torch.rand(w, generator=g),
    "band_10_102": lambda w, g: 10.0 + 0.2 * torch.rand(w, generator=g),
    "low10bits": lambda w, g: _low_bits_row(w, g, 10),  # top 22 bits equal (S4's 10LSBits)
    "small_ints": lambda w, g: torch.randint(-3, 4, (w,), generator=g).float(),  # massive exact ties
    "relu_few_winners": lambda w, g: _scatter(w, g, [torch.rand(37, generator=g) + 0.5]),
    "lesson1_2000x2_5000band": lambda w, g: torch.cat(
        [torch.full((2000,), 2.0), 1.0 + 0.03 * torch.rand(5000, generator=g)])[torch.randperm(7000, generator=g)],
    "lesson1_100win_8220zeros": lambda w, g: _scatter(8320, g, [torch.rand(100, generator=g) + 1.0]),
}


# Rows whose k-th largest value shares its top 22 bits (sign, exponent, 13 mantissa bits: the CUDA
# kernels' first two radix digits) with a few others: 1.125's pattern with these low 10 bits, of
# which `need` are among the top k (k - need values above them, the rest below). Where not all of
# them are needed the third digit decides (or, in a design that ranks a few keys directly, the
# ranking: 32 and 34 keys straddle such a limit). Cases from len(FEW_ON_PREFIX) on add 100 values in
# [1, 1.1), which share only the first digit with the k-th, so that the second digit is picked too.
FEW_ON_PREFIX = [
    ([900, 100, 7, 7, 3], 3),  # the k-th is one of two equal keys: the lower index wins
    ([5, 5], 1),
    ([1023, 0, 512, 511], 1),
    ([1023, 0, 512, 511], 3),
    ([0, 0, 0, 1], 2),
    (list(range(0, 1024, 32)), 17),  # 32 keys
    (list(range(0, 1024, 31)), 17),  # 34 keys: the digit pass
    ([3] * 20 + [9] * 20, 25),  # 40 keys, two values
]


def few_on_prefix_row(width: int, k: int, case: int, g: torch.Generator) -> torch.Tensor:
    lows, need = FEW_ON_PREFIX[case % len(FEW_ON_PREFIX)]
    row = 0.01 * torch.randn(width, generator=g)
    parts = [100.0 + torch.rand(k - need, generator=g),
             (torch.tensor(lows, dtype=torch.int32) | 0x3F900000).view(torch.float32)]
    if case // len(FEW_ON_PREFIX) % 2:
        parts.append(1.0 + 0.1 * torch.rand(100, generator=g))
    vals = torch.cat(parts)
    row[torch.randperm(width, generator=g)[: vals.numel()]] = vals
    return row


def pattern_rows(name: str, rows: int, width: int, seed: int = 0) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    return torch.stack([PATTERNS[name](width, g) for _ in range(rows)])


def run_prefill(logits, row_starts, row_ends, k, deterministic, indices=None):
    if indices is None:
        indices = poisoned((logits.shape[0], k), logits.device)
    torch.ops.dsv4ext.top_k_per_row_prefill(logits, row_starts, row_ends, indices, k, deterministic)
    return indices


def run_decode(logits, next_n, seq_lens, k, deterministic, indices=None):
    if indices is None:
        indices = poisoned((logits.shape[0], k), logits.device)
    torch.ops.dsv4ext.top_k_per_row_decode(logits, next_n, seq_lens, indices, k, deterministic)
    return indices


def check_topk(logits, starts, lengths, k, out, deterministic):
    """The §2 contract for every row (starts/lengths: the clamped windows).

    len <= k: exactly 0..len-1 then -1. len > k: k distinct indices in [0, len); the set equals the
    reference's tie-to-lowest set; deterministic=True: ascending, so bit-equal to the reference;
    NaN-free windows: the selected values are torch.topk's multiset.
    """
    out, logits = out.cpu(), logits.cpu()
    rows = logits.shape[0]
    assert out.dtype == I32 and tuple(out.shape) == (rows, k), (out.dtype, out.shape)
    expect = ref.top_k_per_row(logits, starts, lengths, k)
    for r in range(rows):
        s, n, got = int(starts[r]), int(lengths[r]), out[r]
        ctx = f"row {r} (start {s}, len {n}, k {k}, deterministic {deterministic}): got {got[:16].tolist()}..."
        if n <= k:
            assert torch.equal(got, expect[r]), ctx + f" expected {expect[r][:16].tolist()}..."
            continue
        assert bool(((got >= 0) & (got < n)).all()), ctx + " index out of [0, len)"
        assert got.unique().numel() == k, ctx + " duplicate indices"
        if deterministic:
            assert torch.equal(got, expect[r]), ctx + f" expected ascending {expect[r][:16].tolist()}..."
        else:
            diff = set(got.tolist()) ^ set(expect[r].tolist())
            assert not diff, ctx + f" set differs from the tie-to-lowest set at {sorted(diff)[:16]}"
        window = logits[r, s:s + n]
        if not bool(window.isnan().any()):
            want = torch.topk(window, k).values.sort().values
            assert torch.equal(window[got.long()].sort().values, want), ctx + " value multiset != torch.topk"


def check_prefill(logits, row_starts, row_ends, k, out, deterministic):
    starts, lengths = ref.row_windows_prefill(logits.shape[1], row_starts.cpu(), row_ends.cpu())
    check_topk(logits, starts, lengths, k, out, deterministic)


def check_decode(logits, next_n, seq_lens, k, out, deterministic):
    starts, lengths = ref.row_windows_decode(logits.shape[0], logits.shape[1], next_n, seq_lens.cpu())
    check_topk(logits, starts, lengths, k, out, deterministic)


def strided_logits(dense: torch.Tensor, layout: str) -> torch.Tensor:
    """The same [R, W] values in another memory layout (§2: arbitrary strides, honoured). Padding
    columns hold +inf / NaN, so a kernel that reads them picks a wrong index."""
    rows, width = dense.shape
    garbage = torch.tensor([float("inf"), float("nan")], device=dense.device).repeat(rows * (2 * width + 8))
    if layout == "contiguous":
        return dense.clone()
    if layout == "transposed":  # stride (1, R)
        return dense.t().contiguous().t()
    if layout == "every_other_column":  # stride (2W, 2)
        buf = garbage[: rows * 2 * width].view(rows, 2 * width).clone()
        buf[:, ::2] = dense
        return buf[:, ::2]
    if layout == "offset_by_one_column":  # unaligned row start, pitch W+1
        buf = garbage[: rows * (width + 1)].view(rows, width + 1).clone()
        buf[:, 1:] = dense
        return buf[:, 1:]
    if layout == "pitch_w_plus_3":  # row pitch not a multiple of 4 (vLLM PR #42169)
        buf = garbage[: rows * (width + 3)].view(rows, width + 3).clone()
        buf[:, :width] = dense
        return buf[:, :width]
    raise ValueError(layout)


LAYOUTS = ["contiguous", "transposed", "every_other_column", "offset_by_one_column", "pitch_w_plus_3"]


def random_windows(width: int, k: int, g: torch.Generator, extra: int = 8):
    """(row_starts, row_ends) with non-zero starts and lengths 0, 1, k-1, k, k+1, W-1, W (clamped to
    [0, W]) and `extra` random ones, then four rows with end < start, start < 0, end > W, start > W."""
    lens = [min(max(n, 0), width) for n in (0, 1, k - 1, k, k + 1, width - 1, width)]
    lens += torch.randint(0, width + 1, (extra,), generator=g).tolist()
    starts = [int(torch.randint(0, width - n + 1, (1,), generator=g)) for n in lens]
    ends = [s + n for s, n in zip(starts, lens)]
    starts += [width // 2, -7, width - 3, width + 5]
    ends += [width // 2 - 3, min(k + 3, width), width + 100, width + 9]
    return i32(starts), i32(ends)


def assert_rejects(call, op: str, words) -> None:
    """call() raises a RuntimeError whose message names `op` and contains every one of `words`."""
    with pytest.raises(RuntimeError) as err:
        call()
    msg = str(err.value)
    assert op in msg and all(w in msg for w in words), msg
