"""`python -m dsv4ext check`: every op on every available device against dsv4ext.reference.

bf16 outputs are scored in ulps of the exact (float64) value, over the elements whose magnitude is
at least 2^-10 of the output's largest (below that, fp32 cancellation error dominates any ulp count);
fp32 outputs by the largest error relative to the output's largest magnitude; top-k and the pack by
the number of rows that differ from the exact answer.
"""

from dataclasses import dataclass
from typing import Callable, List

import torch

from . import ops, reference


@dataclass
class Result:
    op: str
    device: str
    case: str
    error: float
    limit: float
    unit: str

    @property
    def passed(self) -> bool:
        return self.error <= self.limit


def ulp_error(out: torch.Tensor, exact: torch.Tensor) -> float:
    """Largest error in bf16 ulps of the exact value (elements >= 2^-10 of the largest); inf on NaN."""
    exact = exact.double().cpu()
    out = out.double().cpu()
    if exact.numel() == 0:
        return 0.0
    big = exact.abs() >= exact.abs().max() * 2.0 ** -10
    ulp = torch.exp2(torch.floor(torch.log2(exact.abs().clamp_min(2.0 ** -126))) - 7)
    err = ((out - exact).abs() / ulp)[big]
    return float("inf") if torch.isnan(out).any() else float(err.max()) if err.numel() else 0.0


def rel_error(out: torch.Tensor, exact: torch.Tensor) -> float:
    """Largest error relative to the exact output's largest magnitude; inf on NaN."""
    exact = exact.double().cpu()
    out = out.double().cpu()
    if torch.isnan(out).any():
        return float("inf")
    return float((out - exact).abs().max() / exact.abs().max().clamp_min(1e-30)) if exact.numel() else 0.0


def _mhc_inputs(device: str, tokens: int = 33, n: int = 4, hidden: int = 1029, gen=None):
    m3 = n * (n + 2)
    scale = torch.logspace(-3, 3, tokens, dtype=torch.float64)[:, None, None]  # six decades per token
    residual = (torch.randn(tokens, n, hidden, generator=gen, dtype=torch.float64) * scale).bfloat16()
    fn = torch.randn(m3, n * hidden, generator=gen) / (n * hidden) ** 0.5
    hc_scale = torch.randn(3, generator=gen) * 0.5
    hc_base = torch.randn(m3, generator=gen) * 0.5
    norm_weight = torch.randn(hidden, generator=gen).bfloat16()
    x = torch.randn(tokens, hidden, generator=gen).bfloat16()
    post = torch.rand(tokens, n, 1, generator=gen) * 2
    comb = torch.rand(tokens, n, n, generator=gen)
    to = lambda *ts: [t.to(device) for t in ts]  # noqa: E731
    return to(residual, fn, hc_scale, hc_base, norm_weight, x, post, comb)


SCALARS = (1e-6, 1e-6, 1e-6, 2.0, 20)


def _check_mhc(device: str, gen) -> List[Result]:
    # n = 4 with D % 256 == 0 takes the CUDA pipelined fast path; n = 3 with odd D the general kernels.
    return [r for n, hidden in ((4, 4096), (3, 1029)) for r in _check_mhc_case(device, gen, n, hidden)]


def _check_mhc_case(device: str, gen, n: int, hidden: int) -> List[Result]:
    case = f"T=33 n={n} D={hidden}"
    residual, fn, hc_scale, hc_base, w, x, post, comb = _mhc_inputs(device, n=n, hidden=hidden, gen=gen)
    results = []
    for norm in (None, w):
        got = ops.mhc_pre(residual, fn, hc_scale, hc_base, *SCALARS, norm_weight=norm)
        exact = reference.mhc_pre(residual.cpu(), fn.cpu(), hc_scale.cpu(), hc_base.cpu(), *SCALARS,
                                  None if norm is None else norm.cpu(), exact=True)
        name = "mhc_pre" + ("+norm" if norm is not None else "")
        results.append(Result(name, device, case, max(rel_error(got[0], exact[0]), rel_error(got[1], exact[1])),
                              1e-5, "rel (mixes)"))
        results.append(Result(name, device, case, ulp_error(got[2], exact[2]), 2.0 if norm is not None else 1.0,
                              "ulp (layer_input)"))
    got = ops.mhc_post(x, residual, post, comb)
    exact = reference.mhc_post(x.cpu(), residual.cpu(), post.cpu(), comb.cpu(), exact=True)
    results.append(Result("mhc_post", device, case, ulp_error(got, exact), 1.0, "ulp"))

    # The delayed pre: carried pre_mix (streams projected), then the broadcast entry (x, fn of width D).
    pre_mix = (post[..., 0] / 2 + 0.5).contiguous()
    for entry, kw, entry_fn in (("carried", {"pre_mix": pre_mix}, fn),
                                ("bcast", {"x": x}, fn.unflatten(1, (n, hidden)).sum(1))):
        got = ops.mhc_pre_delayed(residual, entry_fn, hc_scale, hc_base, *SCALARS, norm_weight=w, **kw)
        exact = reference.mhc_pre_delayed(residual.cpu(), entry_fn.cpu(), hc_scale.cpu(), hc_base.cpu(), *SCALARS,
                                          norm_weight=w.cpu(), exact=True, **{k: v.cpu() for k, v in kw.items()})
        name, entry_case = "mhc_pre_delayed+norm", f"{case} {entry}"
        results.append(Result(name, device, entry_case, max(rel_error(got[i], exact[i]) for i in (0, 1, 3)), 1e-5,
                              "rel (mixes)"))
        results.append(Result(name, device, entry_case, ulp_error(got[2], exact[2]), 2.0, "ulp (layer_input)"))

    got = ops.mhc_fused_post_pre(x, residual, post, comb, fn, hc_scale, hc_base, *SCALARS, norm_weight=w)
    exact_res = reference.mhc_post(x.cpu(), residual.cpu(), post.cpu(), comb.cpu(), exact=True)
    exact_pre = reference.mhc_pre(got[0].cpu(), fn.cpu(), hc_scale.cpu(), hc_base.cpu(), *SCALARS, w.cpu(),
                                  exact=True)
    results.append(Result("mhc_fused_post_pre", device, case, ulp_error(got[0], exact_res), 1.0, "ulp (residual)"))
    results.append(Result("mhc_fused_post_pre", device, case,
                          max(rel_error(got[1], exact_pre[0]), rel_error(got[2], exact_pre[1])), 1e-5,
                          "rel (mixes)"))
    results.append(Result("mhc_fused_post_pre", device, case, ulp_error(got[3], exact_pre[2]), 2.0,
                          "ulp (layer_input)"))

    # DeepSeek-V4.1's seam: the pre half against the delayed pre on the op's own residual_out.
    for entry, carried in (("carried", pre_mix), ("identity", None)):
        got = ops.mhc_fused_post_pre_delayed(x, residual, post, comb, fn, hc_scale, hc_base, *SCALARS,
                                             pre_mix=carried, norm_weight=w)
        exact_pre = reference.mhc_pre_delayed(got[0].cpu(), fn.cpu(), hc_scale.cpu(), hc_base.cpu(), *SCALARS,
                                              None if carried is None else carried.cpu(), None, w.cpu(), exact=True)
        name, entry_case = "mhc_fused_post_pre_delayed", f"{case} {entry}"
        results.append(Result(name, device, entry_case, ulp_error(got[0], exact_res), 1.0, "ulp (residual)"))
        results.append(Result(name, device, entry_case,
                              max(rel_error(got[i], exact_pre[j]) for i, j in ((1, 0), (2, 1), (4, 3))), 1e-5,
                              "rel (mixes)"))
        results.append(Result(name, device, entry_case, ulp_error(got[3], exact_pre[2]), 2.0, "ulp (layer_input)"))

    head_fn, head_scale, head_base = fn[:n], hc_scale[:1], hc_base[:n]
    got = ops.hc_head(residual, head_fn, head_scale, head_base, 1e-6, 1e-6)
    exact = reference.hc_head(residual.cpu(), head_fn.cpu(), head_scale.cpu(), head_base.cpu(), 1e-6, 1e-6,
                              exact=True)
    results.append(Result("hc_head", device, case, ulp_error(got, exact), 1.0, "ulp"))

    stash = torch.empty_like(residual)
    got = ops.mhc_post_hc_head(x, residual, post, comb, head_fn, head_scale, head_base, 1e-6, 1e-6, w, 1e-6,
                               streams_out=stash)
    exact, _ = reference.mhc_post_hc_head(x.cpu(), residual.cpu(), post.cpu(), comb.cpu(), head_fn.cpu(),
                                          head_scale.cpu(), head_base.cpu(), 1e-6, 1e-6, w.cpu(), 1e-6, exact=True)
    results.append(Result("mhc_post_hc_head", device, case, ulp_error(got, exact), 2.0, "ulp (out, +norm)"))
    unfused = ops.mhc_post(x, residual, post, comb)
    results.append(Result("mhc_post_hc_head", device, case, float((stash != unfused).sum()), 0,
                          "stash elements != mhc_post"))

    logits = (torch.randn(257, n, n, generator=gen) * 3).to(device)
    got = ops.sinkhorn(logits, 20, 1e-6)
    exact = reference.sinkhorn(logits.cpu(), 20, 1e-6, exact=True)
    results.append(Result("sinkhorn", device, case, rel_error(got, exact), 1e-5, "rel"))
    return results


def _rows_wrong(got: torch.Tensor, exact: torch.Tensor) -> float:
    return float((got.cpu() != exact).any(1).sum())


def _check_topk(device: str, gen) -> List[Result]:
    rows, width, k = 64, 5000, 512
    logits = torch.randn(rows, width, generator=gen)
    logits[::3, 100:2000] = 0.0  # many exact ties at the k-th value
    logits[1, :10] = float("nan")
    starts = torch.randint(0, 600, (rows,), generator=gen, dtype=torch.int32)
    ends = (starts + torch.randint(0, 4000, (rows,), generator=gen, dtype=torch.int32)).clamp(max=width)
    results = []
    s, n = reference.row_windows_prefill(width, starts, ends)
    exact = reference.top_k_per_row(logits, s, n, k)
    got = ops.top_k_per_row_prefill(logits.to(device), starts.to(device), ends.to(device), k, deterministic=True)
    results.append(Result("top_k_per_row_prefill", device, "64x5000 k=512", _rows_wrong(got, exact), 0,
                          "rows wrong"))

    next_n = 2
    seq_lens = torch.randint(0, width, (rows // next_n,), generator=gen, dtype=torch.int32)
    s, n = reference.row_windows_decode(rows, width, next_n, seq_lens)
    exact = reference.top_k_per_row(logits, s, n, k)
    got = ops.top_k_per_row_decode(logits.to(device), next_n, seq_lens.to(device), k, deterministic=True)
    results.append(Result("top_k_per_row_decode", device, "64x5000 k=512 next_n=2", _rows_wrong(got, exact), 0,
                          "rows wrong"))

    dense = torch.randint(-5, 1000, (300, 77), generator=gen, dtype=torch.int32)
    lengths = torch.randint(-3, 90, (300,), generator=gen, dtype=torch.int32)
    packed, indptr = reference.ragged_pack(dense, lengths, num_kv=900)
    idx_out = torch.full((300 * 77,), -7, dtype=torch.int32, device=device)
    ptr_out = torch.full((302,), -7, dtype=torch.int32, device=device)
    got_idx, got_ptr = ops.ragged_pack(dense.to(device), lengths.to(device), idx_out, ptr_out, num_kv=900)
    wrong = int((got_ptr.cpu() != indptr).sum()) + int((got_idx.cpu()[: packed.numel()] != packed).sum())
    results.append(Result("ragged_pack", device, "300x77", float(wrong), 0, "elements wrong"))
    return results


CHECKS: List[Callable] = [_check_mhc, _check_topk]


def available_devices() -> List[str]:
    from . import BACKENDS

    devices = ["cpu"]
    if "cuda" in BACKENDS and torch.cuda.is_available():
        devices.append("cuda")
    return devices


def run(devices: List[str], seed: int = 0) -> List[Result]:
    gen = torch.Generator().manual_seed(seed)
    return [r for device in devices for check in CHECKS for r in check(device, gen)]
