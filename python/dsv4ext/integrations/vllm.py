"""vLLM drop-ins: the DeepSeek-V4 ops with vLLM's argument lists (shared/spec/ops.md §3.5-3.8,
shared/spec/topk.md §3-4, §6), over torch.ops.dsv4ext. Bind these where vLLM calls its own
(`torch.ops.vllm.mhc_*`, the hc_head kernels, `torch.ops._C.top_k_per_row_*`, the ROCm ragged
builders) and the call sites stay as they are. Arguments vLLM passes only to tune its kernels
(n_splits, tile_n) are accepted and ignored; ones that restate a shape are checked against it."""

from typing import Optional, Tuple

import torch

Tensor = torch.Tensor
OPS = torch.ops.dsv4ext
DEFAULT_NORM_EPS = 1e-6  # the ops' norm_eps default, used when vLLM passes norm_eps=None


def _norm_eps(norm_eps: Optional[float]) -> float:
    return DEFAULT_NORM_EPS if norm_eps is None else norm_eps


def mhc_pre(residual: Tensor, fn: Tensor, hc_scale: Tensor, hc_base: Tensor, rms_eps: float, hc_pre_eps: float,
            hc_sinkhorn_eps: float, hc_post_mult_value: float, sinkhorn_repeat: int, n_splits: int = 1,
            norm_weight: Optional[Tensor] = None,
            norm_eps: Optional[float] = None) -> Tuple[Tensor, Tensor, Tensor]:
    """vLLM `mhc_pre`: (post_mix [..., n, 1], comb_mix [..., n, n], layer_input [..., D])."""
    return OPS.mhc_pre(residual, fn, hc_scale, hc_base, rms_eps, hc_pre_eps, hc_sinkhorn_eps, hc_post_mult_value,
                       sinkhorn_repeat, norm_weight, _norm_eps(norm_eps))


def mhc_pre_delayed(residual: Tensor, fn: Tensor, hc_scale: Tensor, hc_base: Tensor, rms_eps: float,
                    hc_pre_eps: float, hc_sinkhorn_eps: float, hc_post_mult_value: float, sinkhorn_repeat: int,
                    pre_mix: Optional[Tensor] = None, x: Optional[Tensor] = None,
                    norm_weight: Optional[Tensor] = None,
                    norm_eps: Optional[float] = None) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """vLLM's DeepSeek-V4.1 `mhc_pre_delayed` (`mhc_pre_delayed_torch` / `_tilelang`): (post_mix
    [..., n, 1], comb_mix [..., n, n], layer_input [..., D], new pre_mix [..., n]), vLLM's order."""
    return OPS.mhc_pre_delayed(residual, fn, hc_scale, hc_base, rms_eps, hc_pre_eps, hc_sinkhorn_eps,
                               hc_post_mult_value, sinkhorn_repeat, pre_mix, x, norm_weight, _norm_eps(norm_eps))


def mhc_post(x: Tensor, residual: Tensor, post_layer_mix: Tensor, comb_res_mix: Tensor) -> Tensor:
    """vLLM `mhc_post`: the new streams [..., n, D] (comb applied transposed, §3.6)."""
    return OPS.mhc_post(x, residual, post_layer_mix, comb_res_mix)


def mhc_fused_post_pre(x: Tensor, residual: Tensor, post_layer_mix: Tensor, comb_res_mix: Tensor, fn: Tensor,
                       hc_scale: Tensor, hc_base: Tensor, rms_eps: float, hc_pre_eps: float,
                       hc_sinkhorn_eps: float, hc_post_mult_value: float, sinkhorn_repeat: int,
                       n_splits: int = 1, tile_n: int = 1, norm_weight: Optional[Tensor] = None,
                       norm_eps: Optional[float] = None) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """vLLM `mhc_fused_post_pre`: (residual, post_mix, comb_mix, layer_input), vLLM's order."""
    return OPS.mhc_fused_post_pre(x, residual, post_layer_mix, comb_res_mix, fn, hc_scale, hc_base, rms_eps,
                                  hc_pre_eps, hc_sinkhorn_eps, hc_post_mult_value, sinkhorn_repeat, norm_weight,
                                  _norm_eps(norm_eps))


def mhc_fused_post_pre_delayed(x: Tensor, residual: Tensor, post_layer_mix: Tensor, comb_res_mix: Tensor, fn: Tensor,
                               hc_scale: Tensor, hc_base: Tensor, rms_eps: float, hc_pre_eps: float,
                               hc_sinkhorn_eps: float, hc_post_mult_value: float, sinkhorn_repeat: int,
                               pre_mix: Optional[Tensor] = None, norm_weight: Optional[Tensor] = None,
                               norm_eps: Optional[float] = 1e-6,
                               capture_aux: bool = False) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]:
    """vLLM's DeepSeek-V4.1 seam `mhc_fused_post_pre_delayed_tilelang`: (residual, post_mix [..., n, 1],
    comb_mix, layer_input, new pre_mix, aux), vLLM's order. aux is the draft model's stream mean
    `residual.mean(dim=1)` [T, D] bf16 with capture_aux (computed after the op, a second read of the
    streams; vLLM folds it into its collapse), else an empty [0, D] tensor as vLLM returns."""
    outs = OPS.mhc_fused_post_pre_delayed(x, residual, post_layer_mix, comb_res_mix, fn, hc_scale, hc_base, rms_eps,
                                          hc_pre_eps, hc_sinkhorn_eps, hc_post_mult_value, sinkhorn_repeat, pre_mix,
                                          norm_weight, _norm_eps(norm_eps))
    aux = outs[0].mean(dim=-2) if capture_aux else x.new_empty(0, x.shape[-1])
    return (*outs, aux)


def mhc_shifted_post_pre(x: Tensor, residual: Tensor, post_layer_mix: Tensor, comb_res_mix: Tensor, fn: Tensor,
                         hc_scale: Tensor, hc_base: Tensor, rms_eps: float, hc_pre_eps: float, hc_sinkhorn_eps: float,
                         hc_post_mult_value: float, sinkhorn_repeat: int, pre_mix: Optional[Tensor] = None,
                         norm_weight: Optional[Tensor] = None, norm_eps: Optional[float] = 1e-6,
                         capture_aux: bool = False, *, stream=None,
                         reduce_results: bool = False) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]:
    """vLLM's DeepSeek-V4.1 seam dispatcher (`vllm/models/deepseek_v41/nvidia/ops/mhc.py`), as
    `mhc_fused_post_pre_delayed`. `stream` (vLLM's side stream for the coefficients) is accepted and
    not used: every output is ready on the current stream, so the caller's join is a no-op.
    reduce_results (vLLM's fused tensor-parallel all-reduce of x) is not supported: reduce x first."""
    if reduce_results:
        raise ValueError("mhc_shifted_post_pre: reduce_results=True (the fused TP all-reduce) is not supported; "
                         "all-reduce x first and pass reduce_results=False")
    return mhc_fused_post_pre_delayed(x, residual, post_layer_mix, comb_res_mix, fn, hc_scale, hc_base, rms_eps,
                                      hc_pre_eps, hc_sinkhorn_eps, hc_post_mult_value, sinkhorn_repeat, pre_mix,
                                      norm_weight, norm_eps, capture_aux)


def mhc_post_hc_head_fused(x: Tensor, residual: Tensor, post_layer_mix: Tensor, comb_res_mix: Tensor,
                           hc_head_fn: Tensor, hc_head_scale: Tensor, hc_head_base: Tensor, rms_norm_eps: float,
                           hc_eps: float) -> Tensor:
    """vLLM's `mhc_post_hc_head_fused` (`torch.ops.vllm.mhc_post_hc_head_fused`, the last post then
    hc_head): [..., D] bf16."""
    return OPS.mhc_post_hc_head(x, residual, post_layer_mix, comb_res_mix, hc_head_fn, hc_head_scale, hc_head_base,
                                rms_norm_eps, hc_eps, None, DEFAULT_NORM_EPS, None)


def mhc_post_hc_head_norm_fused(x: Tensor, residual: Tensor, post_layer_mix: Tensor, comb_res_mix: Tensor,
                                hc_head_fn: Tensor, hc_head_scale: Tensor, hc_head_base: Tensor, norm_weight: Tensor,
                                rms_norm_eps: float, hc_eps: float, norm_eps: float,
                                mtp_buffer: Optional[Tensor] = None) -> Tensor:
    """vLLM's `mhc_post_hc_head_norm_fused`: the last post, hc_head and the final RMSNorm, [..., D] bf16.
    mtp_buffer, vLLM's persistent MTP stash [max_tokens >= T, n * D] bf16, receives the new streams in
    its first T rows (the rows past T are not written), as vLLM's `_mtp` kernel variant does."""
    streams_out = None
    if mtp_buffer is not None:
        n, d = residual.shape[-2:]
        tokens = residual.numel() // max(n * d, 1)
        if (mtp_buffer.dim() != 2 or mtp_buffer.shape[0] < tokens or mtp_buffer.shape[1] != n * d
                or mtp_buffer.dtype != torch.bfloat16 or mtp_buffer.stride(-1) != 1
                or (mtp_buffer.shape[0] > 1 and mtp_buffer.stride(0) != n * d)):
            got = f"{str(mtp_buffer.dtype).removeprefix('torch.')} {list(mtp_buffer.shape)}"
            raise ValueError(f"mhc_post_hc_head_norm_fused: mtp_buffer must be a contiguous bfloat16 "
                             f"[rows >= T={tokens}, n * D={n * d}], got {got} with strides {list(mtp_buffer.stride())}")
        streams_out = mtp_buffer[:tokens].view(residual.shape)
    return OPS.mhc_post_hc_head(x, residual, post_layer_mix, comb_res_mix, hc_head_fn, hc_head_scale, hc_head_base,
                                rms_norm_eps, hc_eps, norm_weight, norm_eps, streams_out)


def hc_head(hs_flat: Tensor, fn: Tensor, hc_scale: Tensor, hc_base: Tensor, rms_eps: float,
            hc_eps: float) -> Tensor:
    """vLLM's returning hc_head kernel (`hc_head_fused_kernel_tilelang`): [T, n, D] -> [T, D] bf16."""
    return OPS.hc_head(hs_flat, fn, hc_scale, hc_base, rms_eps, hc_eps)


def hc_head_fused_kernel(hs_flat: Tensor, fn: Tensor, hc_scale: Tensor, hc_base: Tensor, out: Tensor,
                         hidden_size: int, rms_eps: float, hc_eps: float, hc_mult: int) -> Tensor:
    """vLLM's early hc_head kernel, which writes `out` [T, D]; hidden_size and hc_mult must match hs_flat."""
    if tuple(hs_flat.shape[1:]) != (hc_mult, hidden_size):
        raise ValueError(f"hc_head_fused_kernel: hs_flat must be [T, hc_mult={hc_mult}, hidden_size={hidden_size}], "
                         f"got {tuple(hs_flat.shape)}")
    return out.copy_(OPS.hc_head(hs_flat, fn, hc_scale, hc_base, rms_eps, hc_eps))


def _check_rows_strides(op: str, logits: Tensor, num_rows: int, stride0: int, stride1: int):
    if num_rows != logits.size(0):
        raise ValueError(f"{op}: numRows must equal logits.size(0) = {logits.size(0)}, got {num_rows}")
    if (stride0, stride1) != logits.stride():
        raise ValueError(f"{op}: (stride0, stride1) must equal logits.stride() = {logits.stride()}, "
                         f"got {(stride0, stride1)}")


def top_k_per_row_prefill(logits: Tensor, rowStarts: Tensor, rowEnds: Tensor, indices: Tensor, numRows: int,
                          stride0: int, stride1: int, topK: int) -> None:
    """`torch.ops._C.top_k_per_row_prefill`: writes indices [numRows, topK] relative to rowStarts."""
    _check_rows_strides("top_k_per_row_prefill", logits, numRows, stride0, stride1)
    OPS.top_k_per_row_prefill(logits, rowStarts, rowEnds, indices, topK, False)


def top_k_per_row_decode(logits: Tensor, next_n: int, seq_lens: Tensor, indices: Tensor, numRows: int,
                         stride0: int, stride1: int, topK: int) -> None:
    """`torch.ops._C.top_k_per_row_decode`: row r = b * next_n + q; seq_lens [B] (causal within next_n)
    or [B, next_n] (one length per row)."""
    _check_rows_strides("top_k_per_row_decode", logits, numRows, stride0, stride1)
    OPS.top_k_per_row_decode(logits, next_n, seq_lens, indices, topK, False)


def build_ragged_into_graph_buffers(indices: Tensor, lengths: Tensor, ragged_indices_buffer: Tensor,
                                    ragged_indptr_buffer: Tensor, num_rows: int, max_entries_per_row: int,
                                    num_kv: int = -1) -> Tuple[Tensor, Tensor]:
    """One launch for vLLM's ROCm pair `build_ragged_indices_from_dense(indices, lengths, num_kv)` then
    `_copy_ragged_to_graph_buffers(..., ragged_indices_buffer, ragged_indptr_buffer, num_rows,
    max_entries_per_row)`: packs indices[r, :lengths[r]] straight into the persistent buffers, with
    values outside [0, num_kv) written as -1 when num_kv >= 0, and no host sync.

    indices [num_rows, W] int32 with W <= max_entries_per_row. Returns the same views as vLLM's copy:
    (ragged_indices_buffer[:max(num_rows * max_entries_per_row, 1)], ragged_indptr_buffer[:num_rows + 1]).
    """
    if indices.dim() != 2 or indices.size(0) != num_rows or indices.size(1) > max_entries_per_row:
        raise ValueError(f"build_ragged_into_graph_buffers: indices must be [num_rows={num_rows}, "
                         f"W <= max_entries_per_row={max_entries_per_row}], got {tuple(indices.shape)}")
    OPS.ragged_pack(indices, lengths, ragged_indices_buffer, ragged_indptr_buffer, num_kv, -1)
    return (ragged_indices_buffer[: max(num_rows * max_entries_per_row, 1)],
            ragged_indptr_buffer[: num_rows + 1])
