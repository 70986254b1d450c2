"""The spec as plain torch code: the executable definition every backend is tested against.

mHC functions (shared/spec/ops.md §3) compute in ``compute_dtype`` (float64 by default) and keep the
spec's intermediate bf16 roundings (the fused-norm y, the fused op's stored residual). With
``exact=False`` the outputs are cast like the op's (bf16 streams, fp32 mixes); with ``exact=True``
the final roundings are skipped so tests can measure an op's error in ulps of the exact value.
Top-k and ragged-pack references (shared/spec/topk.md) are exact by construction.
"""

from typing import Optional, Tuple

import torch

Tensor = torch.Tensor


def _out(t: Tensor, dtype: torch.dtype, exact: bool) -> Tensor:
    return t if exact else t.to(dtype)


def _streams(residual: Tensor, compute_dtype: torch.dtype) -> Tuple[Tensor, int, int]:
    n, d = residual.shape[-2], residual.shape[-1]
    return residual.to(compute_dtype), n, d


def _rms_mix(x: Tensor, fn: Tensor, rms_eps: float) -> Tensor:
    """mix[..., m] = (x_flat . fn[m]) / sqrt(mean(x_flat^2) + eps): §3.1-3.2."""
    flat = x.flatten(-2)
    g = flat @ fn.to(x.dtype).T
    r = torch.rsqrt(flat.square().mean(-1, keepdim=True) + rms_eps)
    return g * r


def sinkhorn(logits: Tensor, repeat: int, eps: float, *, compute_dtype: torch.dtype = torch.float64,
             exact: bool = False) -> Tensor:
    """§3.4: row softmax, +eps, column step, then (repeat - 1) x (row step, column step)."""
    c = torch.softmax(logits.to(compute_dtype), dim=-1) + eps
    c = c / (c.sum(-2, keepdim=True) + eps)
    for _ in range(repeat - 1):
        c = c / (c.sum(-1, keepdim=True) + eps)
        c = c / (c.sum(-2, keepdim=True) + eps)
    return _out(c, torch.float32, exact)


def _collapse(x: Tensor, pre: Tensor, norm_weight: Optional[Tensor], norm_eps: float) -> Tensor:
    """sum_i pre[i] * x[i, :]; with norm_weight the fused RMSNorm of §3.5 (ss from unrounded y,
    scaling applied to bf16(y))."""
    y = (pre.unsqueeze(-1) * x).sum(-2)
    if norm_weight is None:
        return y
    rs = torch.rsqrt(y.square().mean(-1, keepdim=True) + norm_eps)
    return y.to(torch.bfloat16).to(y.dtype) * rs * norm_weight.to(y.dtype)


def mhc_pre(residual: Tensor, fn: Tensor, hc_scale: Tensor, hc_base: Tensor, rms_eps: float, hc_pre_eps: float,
            hc_sinkhorn_eps: float, hc_post_mult_value: float, sinkhorn_repeat: int,
            norm_weight: Optional[Tensor] = None, norm_eps: float = 1e-6, *,
            compute_dtype: torch.dtype = torch.float64, exact: bool = False) -> Tuple[Tensor, Tensor, Tensor]:
    """§3.5: (post_mix [..., n, 1], comb_mix [..., n, n], layer_input [..., D])."""
    x, n, _ = _streams(residual, compute_dtype)
    pre, post, comb = _mixes(x, n, fn, hc_scale, hc_base, rms_eps, hc_pre_eps, hc_sinkhorn_eps,
                             hc_post_mult_value, sinkhorn_repeat)
    layer_input = _collapse(x, pre, norm_weight, norm_eps)
    return (_out(post.unsqueeze(-1), torch.float32, exact), _out(comb, torch.float32, exact),
            _out(layer_input, torch.bfloat16, exact))


def _mixes(x: Tensor, n: int, fn: Tensor, hc_scale: Tensor, hc_base: Tensor, rms_eps: float, hc_pre_eps: float,
           hc_sinkhorn_eps: float, hc_post_mult_value: float,
           sinkhorn_repeat: int) -> Tuple[Tensor, Tensor, Tensor]:
    """§3.1-3.4 on x [..., k, D] (flattened to k*D): unrounded (pre [..., n], post [..., n], comb)."""
    mix = _rms_mix(x, fn, rms_eps)
    scale = hc_scale.to(x.dtype)
    base = hc_base.to(x.dtype)
    pre = torch.sigmoid(mix[..., :n] * scale[0] + base[:n]) + hc_pre_eps
    post = hc_post_mult_value * torch.sigmoid(mix[..., n:2 * n] * scale[1] + base[n:2 * n])
    logits = (mix[..., 2 * n:] * scale[2] + base[2 * n:]).unflatten(-1, (n, n))
    comb = sinkhorn(logits, sinkhorn_repeat, hc_sinkhorn_eps, compute_dtype=x.dtype, exact=True)
    return pre, post, comb


def mhc_pre_delayed(residual: Tensor, fn: Tensor, hc_scale: Tensor, hc_base: Tensor, rms_eps: float,
                    hc_pre_eps: float, hc_sinkhorn_eps: float, hc_post_mult_value: float, sinkhorn_repeat: int,
                    pre_mix: Optional[Tensor] = None, x: Optional[Tensor] = None,
                    norm_weight: Optional[Tensor] = None, norm_eps: float = 1e-6, *,
                    compute_dtype: torch.dtype = torch.float64,
                    exact: bool = False) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """DeepSeek-V4.1's delayed pre (docs/ops.md): the mixes of x [..., D] (fn [M3, D]) when given,
    else of the residual; layer_input collapses the residual with the carried pre_mix (stream 0
    without one). Returns (post_mix [..., n, 1], comb_mix, layer_input, new_pre [..., n])."""
    streams, n, _ = _streams(residual, compute_dtype)
    src = streams if x is None else x.to(compute_dtype).unsqueeze(-2)
    new_pre, post, comb = _mixes(src, n, fn, hc_scale, hc_base, rms_eps, hc_pre_eps, hc_sinkhorn_eps,
                                 hc_post_mult_value, sinkhorn_repeat)
    if pre_mix is None:
        layer_input = _collapse(streams[..., :1, :], streams.new_ones(1), norm_weight, norm_eps)
    else:
        layer_input = _collapse(streams, pre_mix.to(compute_dtype), norm_weight, norm_eps)
    return (_out(post.unsqueeze(-1), torch.float32, exact), _out(comb, torch.float32, exact),
            _out(layer_input, torch.bfloat16, exact), _out(new_pre, torch.float32, exact))


def mhc_post(x: Tensor, residual: Tensor, post_layer_mix: Tensor, comb_res_mix: Tensor, *,
             compute_dtype: torch.dtype = torch.float64, exact: bool = False) -> Tensor:
    """§3.6: out[..., j, :] = post[j] * x + sum_i comb[i, j] * residual[..., i, :] (comb transposed)."""
    r, n, _ = _streams(residual, compute_dtype)
    post = post_layer_mix.to(compute_dtype).reshape(*residual.shape[:-2], n, 1)
    comb = comb_res_mix.to(compute_dtype)
    out = post * x.to(compute_dtype).unsqueeze(-2) + comb.transpose(-1, -2) @ r
    return _out(out, torch.bfloat16, exact)


def mhc_fused_post_pre(x: Tensor, residual: Tensor, post_layer_mix: Tensor, comb_res_mix: Tensor, fn: Tensor,
                       hc_scale: Tensor, hc_base: Tensor, rms_eps: float, hc_pre_eps: float,
                       hc_sinkhorn_eps: float, hc_post_mult_value: float, sinkhorn_repeat: int,
                       norm_weight: Optional[Tensor] = None, norm_eps: float = 1e-6, *,
                       compute_dtype: torch.dtype = torch.float64,
                       exact: bool = False) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """§3.7: post, round the new residual to bf16 (the stored value), then pre on it."""
    new_residual = mhc_post(x, residual, post_layer_mix, comb_res_mix, compute_dtype=compute_dtype, exact=exact)
    pre_outs = mhc_pre(new_residual.to(torch.bfloat16), fn, hc_scale, hc_base, rms_eps, hc_pre_eps,
                       hc_sinkhorn_eps, hc_post_mult_value, sinkhorn_repeat, norm_weight, norm_eps,
                       compute_dtype=compute_dtype, exact=exact)
    return (new_residual, *pre_outs)


def mhc_fused_post_pre_delayed(x: Tensor, residual: Tensor, post_layer_mix: Tensor, comb_res_mix: Tensor,
                               fn: Tensor, hc_scale: Tensor, hc_base: Tensor, rms_eps: float, hc_pre_eps: float,
                               hc_sinkhorn_eps: float, hc_post_mult_value: float, sinkhorn_repeat: int,
                               pre_mix: Optional[Tensor] = None, norm_weight: Optional[Tensor] = None,
                               norm_eps: float = 1e-6, *, compute_dtype: torch.dtype = torch.float64,
                               exact: bool = False) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
    """DeepSeek-V4.1's seam (docs/ops.md): post, round the new residual to bf16 (the stored value), then
    the delayed pre on it with the carried pre_mix. Returns (residual_out, post_mix, comb_mix,
    layer_input, new_pre)."""
    new_residual = mhc_post(x, residual, post_layer_mix, comb_res_mix, compute_dtype=compute_dtype, exact=exact)
    pre_outs = mhc_pre_delayed(new_residual.to(torch.bfloat16), fn, hc_scale, hc_base, rms_eps, hc_pre_eps,
                               hc_sinkhorn_eps, hc_post_mult_value, sinkhorn_repeat, pre_mix, None, norm_weight,
                               norm_eps, compute_dtype=compute_dtype, exact=exact)
    return (new_residual, *pre_outs)


def hc_head(hidden_states: Tensor, fn: Tensor, hc_scale: Tensor, hc_base: Tensor, rms_eps: float,
            hc_eps: float, *, compute_dtype: torch.dtype = torch.float64, exact: bool = False) -> Tensor:
    """§3.8: pre = sigmoid(mix * scale + base) + eps; out = sum_i pre[i] * hidden_states[..., i, :]."""
    x, n, _ = _streams(hidden_states, compute_dtype)
    mix = _rms_mix(x, fn, rms_eps)
    pre = torch.sigmoid(mix * hc_scale.to(compute_dtype)[0] + hc_base.to(compute_dtype)) + hc_eps
    return _out(_collapse(x, pre, None, 0.0), torch.bfloat16, exact)


def rms_norm(x: Tensor, weight: Tensor, eps: float, *, compute_dtype: torch.dtype = torch.float64,
             exact: bool = False) -> Tensor:
    """The model's RMSNorm of a stored bf16 row: x * rsqrt(mean(x^2) + eps) * weight."""
    xf = x.to(compute_dtype)
    y = xf * torch.rsqrt(xf.square().mean(-1, keepdim=True) + eps) * weight.to(compute_dtype)
    return _out(y, torch.bfloat16, exact)


def mhc_post_hc_head(x: Tensor, residual: Tensor, post_layer_mix: Tensor, comb_res_mix: Tensor, fn: Tensor,
                     hc_scale: Tensor, hc_base: Tensor, rms_eps: float, hc_eps: float,
                     norm_weight: Optional[Tensor] = None, norm_eps: float = 1e-6, *,
                     compute_dtype: torch.dtype = torch.float64,
                     exact: bool = False) -> Tuple[Tensor, Tensor]:
    """§4.6: (out [..., D], streams [..., n, D]): mhc_post rounded to bf16 (the stored streams),
    hc_head on them, then with norm_weight the final RMSNorm of the bf16-rounded head output.
    `exact` skips only the last rounding of each returned tensor."""
    streams = mhc_post(x, residual, post_layer_mix, comb_res_mix, compute_dtype=compute_dtype, exact=exact)
    y = hc_head(streams.to(torch.bfloat16), fn, hc_scale, hc_base, rms_eps, hc_eps, compute_dtype=compute_dtype,
                exact=exact or norm_weight is not None)
    if norm_weight is not None:
        y = rms_norm(y.to(torch.bfloat16), norm_weight, norm_eps, compute_dtype=compute_dtype, exact=exact)
    return y, streams


# ---------------------------------------------------------------------------------------------
# top-k and ragged pack


def topk_keys(values: Tensor) -> Tensor:
    """Order-preserving int64 keys (topk.md §2): +inf > finite (-0.0 == +0.0) > -inf > NaN."""
    v = values.to(torch.float32).contiguous()
    u = v.view(torch.int32).to(torch.int64) & 0xFFFFFFFF
    u = torch.where(u == 0x80000000, torch.zeros_like(u), u)
    key = torch.where(u >= 0x80000000, 0xFFFFFFFF - u, u | 0x80000000)
    return torch.where(torch.isnan(v), torch.zeros_like(key), key)


def row_windows_prefill(width: int, row_starts: Tensor, row_ends: Tensor) -> Tuple[Tensor, Tensor]:
    """(start, length) per row after clamping to [0, width]."""
    s = row_starts.to(torch.int64).clamp(0, width)
    e = torch.maximum(row_ends.to(torch.int64).clamp(max=width), s)
    return s, e - s


def row_windows_decode(rows: int, width: int, next_n: int, seq_lens: Tensor) -> Tuple[Tensor, Tensor]:
    lens = seq_lens.to(torch.int64)
    if lens.dim() == 2:
        length = lens.reshape(-1)
    else:
        q = torch.arange(rows, device=lens.device) % next_n
        length = lens.repeat_interleave(next_n) - next_n + q + 1
    return torch.zeros_like(length), length.clamp(0, width)


def top_k_per_row(logits: Tensor, starts: Tensor, lengths: Tensor, k: int) -> Tensor:
    """Exact per-row top-k in the deterministic form: the k largest of each window (ties to the
    lowest index), written in ascending index order, relative to the window start; rows shorter
    than k give 0..len-1 then -1. Returns int32 [R, k] on the CPU."""
    logits = logits.cpu()
    out = torch.full((logits.shape[0], k), -1, dtype=torch.int32)
    for r in range(logits.shape[0]):
        s, n = int(starts[r]), int(lengths[r])
        if n <= k:
            out[r, :n] = torch.arange(n, dtype=torch.int32)
            continue
        keys = topk_keys(logits[r, s:s + n])
        order = torch.sort(keys, descending=True, stable=True).indices[:k]
        out[r] = torch.sort(order).values.to(torch.int32)
    return out


def ragged_pack(dense: Tensor, lengths: Tensor, num_kv: int = -1, fill: int = -1) -> Tuple[Tensor, Tensor]:
    """(packed values [sum of clamped lengths], indptr [R + 1]) as int32 on the CPU."""
    dense, lengths = dense.cpu(), lengths.cpu().to(torch.int64).clamp(0, dense.shape[1])
    indptr = torch.zeros(dense.shape[0] + 1, dtype=torch.int64)
    indptr[1:] = torch.cumsum(lengths, 0)
    parts = [dense[r, :int(lengths[r])] for r in range(dense.shape[0])]
    packed = (torch.cat(parts) if parts else torch.zeros(0, dtype=torch.int32)).long()  # int64: num_kv may pass 2^31
    if num_kv >= 0:
        packed = torch.where((packed < 0) | (packed >= num_kv), torch.full_like(packed, fill), packed)
    return packed.to(torch.int32), indptr.to(torch.int32)
