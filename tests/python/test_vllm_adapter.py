"""dsv4ext.integrations.vllm called the way vLLM's DeepSeek-V4 (and V4.1) code calls its ops (shared/spec/ops.md
§3.5-3.8, topk.md §3-4, §6) gives the native ops' results bitwise; tuning arguments are ignored,
shape-restating ones are checked."""

import math
import re

import pytest
import torch

from dsv4ext import reference as ref
from dsv4ext.integrations import vllm
from mhc_cases import assert_same
from topk_cases import SENTINEL, poisoned

OPS = torch.ops.dsv4ext
T, N, D = 5, 4, 256
SCALARS = (1e-6, 1e-6, 1e-6, 2.0, 20)  # rms_eps, hc_pre_eps, hc_sinkhorn_eps, hc_post_mult_value, sinkhorn_repeat


def mhc_inputs(device, seed=0):
    """residual, x, post_mix, comb_mix, fn, hc_scale, hc_base, norm_weight, head fn/scale/base."""
    g = torch.Generator().manual_seed(seed)
    m3, k = N * (N + 2), N * D
    tensors = (torch.randn(T, N, D, generator=g).bfloat16(), torch.randn(T, D, generator=g).bfloat16(),
               torch.rand(T, N, 1, generator=g) * 2, torch.rand(T, N, N, generator=g),
               torch.randn(m3, k, generator=g) / math.sqrt(k), 0.5 * torch.randn(3, generator=g),
               0.5 * torch.randn(m3, generator=g), (1 + 0.2 * torch.randn(D, generator=g)).bfloat16(),
               torch.randn(N, k, generator=g) / math.sqrt(k), 0.5 * torch.randn(1, generator=g),
               0.5 * torch.randn(N, generator=g))
    return [t.to(device) for t in tensors]


def test_mhc_pre_as_vllm_calls_it(device):
    residual, _, _, _, fn, scale, base, norm_w, *_ = mhc_inputs(device)
    native = OPS.mhc_pre(residual, fn, scale, base, *SCALARS)
    # vLLM's hc_pre: keyword arguments, n_splits from its split heuristic.
    assert_same(vllm.mhc_pre(residual=residual, fn=fn, hc_scale=scale, hc_base=base, rms_eps=1e-6, hc_pre_eps=1e-6,
                             hc_sinkhorn_eps=1e-6, hc_post_mult_value=2.0, sinkhorn_repeat=20, n_splits=16), native)
    # With the attention norm fused, positionally up to n_splits.
    fused_norm = OPS.mhc_pre(residual, fn, scale, base, *SCALARS, norm_w, 1e-5)
    assert_same(vllm.mhc_pre(residual, fn, scale, base, *SCALARS, 1, norm_weight=norm_w, norm_eps=1e-5), fused_norm)
    assert_same(vllm.mhc_pre(residual, fn, scale, base, *SCALARS, 1, norm_w),
                OPS.mhc_pre(residual, fn, scale, base, *SCALARS, norm_w, 1e-6))


def test_mhc_pre_delayed_as_vllm_v41_calls_it(device):
    """vLLM's DeepSeek-V4.1 decoder: the first layer's broadcast call (x, fn of width D, no pre_mix) and
    a later sub-layer's carried call, keywords as it passes them."""
    residual, x, post, _, fn, scale, base, norm_w, *_ = mhc_inputs(device)
    fn_b = fn.unflatten(1, (N, D)).sum(1)
    broadcast = x.unsqueeze(1).expand(-1, N, -1).contiguous()
    assert_same(vllm.mhc_pre_delayed(broadcast, fn_b, scale, base, *SCALARS, x=x, norm_weight=norm_w, norm_eps=1e-5),
                OPS.mhc_pre_delayed(broadcast, fn_b, scale, base, *SCALARS, None, x, norm_w, 1e-5))
    pre_mix = post[..., 0].contiguous()
    assert_same(vllm.mhc_pre_delayed(residual, fn, scale, base, *SCALARS, pre_mix=pre_mix, norm_weight=norm_w,
                                     norm_eps=None),
                OPS.mhc_pre_delayed(residual, fn, scale, base, *SCALARS, pre_mix, None, norm_w, 1e-6))


def test_v41_seam_as_vllm_calls_it(device):
    """vLLM's DeepSeek-V4.1 seam: `mhc_fused_post_pre_delayed_tilelang` and its dispatcher `mhc_shifted_post_pre`
    with the decoder's keywords, vLLM's six outputs (the last: the stream mean with capture_aux, else [0, D])."""
    residual, x, post, comb, fn, scale, base, norm_w, *_ = mhc_inputs(device, seed=5)
    pre_mix = (post[..., 0] / 2 + 0.5).contiguous()
    native = OPS.mhc_fused_post_pre_delayed(x, residual, post, comb, fn, scale, base, *SCALARS, pre_mix, norm_w, 1e-6)
    for seam in (vllm.mhc_fused_post_pre_delayed, vllm.mhc_shifted_post_pre):
        outs = seam(x, residual, post, comb, fn, scale, base, *SCALARS, pre_mix=pre_mix, norm_weight=norm_w,
                    norm_eps=1e-6)
        assert_same(outs[:5], native)
        assert outs[5].shape == (0, D) and outs[5].dtype == torch.bfloat16
    outs = vllm.mhc_shifted_post_pre(x, residual, post, comb, fn, scale, base, *SCALARS, None, norm_w, None, True,
                                     stream=None)
    assert_same(outs[:5], OPS.mhc_fused_post_pre_delayed(x, residual, post, comb, fn, scale, base, *SCALARS, None,
                                                         norm_w, 1e-6))
    assert_same(outs[5], outs[0].float().mean(1).to(torch.bfloat16))
    with pytest.raises(ValueError, match="reduce_results=True"):
        vllm.mhc_shifted_post_pre(x, residual, post, comb, fn, scale, base, *SCALARS, reduce_results=True)


def test_mhc_post_and_fused_post_pre_as_vllm_calls_them(device):
    residual, x, post, comb, fn, scale, base, norm_w, *_ = mhc_inputs(device)
    assert_same(vllm.mhc_post(x, residual, post, comb), OPS.mhc_post(x, residual, post, comb))
    native = OPS.mhc_fused_post_pre(x, residual, post, comb, fn, scale, base, *SCALARS)
    # vLLM's kernel test: twelve positional arguments; its decoder layer adds the norm by keyword.
    assert_same(vllm.mhc_fused_post_pre(x, residual, post, comb, fn, scale, base, *SCALARS), native)
    assert_same(vllm.mhc_fused_post_pre(x, residual, post, comb, fn, scale, base, *SCALARS, 8, 4,
                                        norm_weight=norm_w, norm_eps=1e-5),
                OPS.mhc_fused_post_pre(x, residual, post, comb, fn, scale, base, *SCALARS, norm_w, 1e-5))


def test_hc_head_both_vllm_forms(device):
    residual, *_, head_fn, head_scale, head_base = mhc_inputs(device)
    native = OPS.hc_head(residual, head_fn, head_scale, head_base, 1e-6, 1e-6)
    assert_same(vllm.hc_head(residual, head_fn, head_scale, head_base, 1e-6, 1e-6), native)
    out = torch.full((T, D), float("nan"), dtype=torch.bfloat16, device=device)
    returned = vllm.hc_head_fused_kernel(residual, head_fn, head_scale, head_base, out, D, 1e-6, 1e-6, N)
    assert returned is out
    assert_same(out, native)
    with pytest.raises(ValueError, match=r"hs_flat must be \[T, hc_mult=4, hidden_size=255\]"):
        vllm.hc_head_fused_kernel(residual, head_fn, head_scale, head_base, out, D - 1, 1e-6, 1e-6, N)


def test_mhc_post_hc_head_as_vllm_calls_it(device):
    """vLLM's final seam: `mhc_post_hc_head_fused` (post + hc_head) and `mhc_post_hc_head_norm_fused`
    (+ final norm; its MTP variant writes the first T rows of the persistent [max_tokens, n * D] stash)."""
    residual, x, post, comb, _, _, _, norm_w, head_fn, head_scale, head_base = mhc_inputs(device, seed=4)
    post2 = post[..., 0].contiguous()  # vLLM passes post as [T, n, 1] or [T, n]
    args = (x, residual, post2, comb, head_fn, head_scale, head_base)
    assert_same(vllm.mhc_post_hc_head_fused(*args, 1e-6, 1e-3),
                OPS.mhc_post_hc_head(*args, 1e-6, 1e-3, None, 1e-6, None))
    native = OPS.mhc_post_hc_head(*args, 1e-6, 1e-3, norm_w, 1e-5, None)
    assert_same(vllm.mhc_post_hc_head_norm_fused(*args, norm_w, 1e-6, 1e-3, 1e-5), native)
    buffer = torch.full((2 * T + 3, N * D), float("nan"), dtype=torch.bfloat16, device=device)
    out = vllm.mhc_post_hc_head_norm_fused(*args, norm_w, 1e-6, 1e-3, 1e-5, mtp_buffer=buffer)
    # With a stash CUDA may run another kernel (docs/ops.md): compare with the native call that stores one.
    assert_same(out, OPS.mhc_post_hc_head(*args, 1e-6, 1e-3, norm_w, 1e-5, torch.empty_like(residual)))
    assert_same(buffer[:T], OPS.mhc_post(x, residual, post2, comb).flatten(1))
    assert bool(buffer[T:].isnan().all()), "wrote past the first T rows"
    for bad, got in ((buffer[:T - 1], f"[{T - 1}, {N * D}]"), (buffer[:, :-8], f"[{2 * T + 3}, {N * D - 8}]"),
                     (buffer.float(), f"float32 [{2 * T + 3}, {N * D}]")):
        with pytest.raises(ValueError, match=re.escape(f"mtp_buffer must be a contiguous bfloat16 [rows >= T={T}, "
                                                       f"n * D={N * D}], got ") + ".*" + re.escape(got)):
            vllm.mhc_post_hc_head_norm_fused(*args, norm_w, 1e-6, 1e-3, 1e-5, mtp_buffer=bad)


def padded_logits(rows, width, device, seed=0):
    """fp32 [rows, width] view of a buffer with a row pitch of width + 3 (a DeepGEMM-style padding)."""
    g = torch.Generator().manual_seed(seed)
    return torch.randn(rows, width + 3, generator=g).to(device)[:, :width]


def test_top_k_per_row_prefill_as_vllm_calls_it(device):
    rows, width, k = 6, 300, 64
    logits = padded_logits(rows, width, device)
    starts = torch.tensor([0, 5, 40, 100, 0, 290], dtype=torch.int32, device=device)
    ends = torch.tensor([300, 200, 90, 300, 10, 300], dtype=torch.int32, device=device)
    # vLLM passes a slice of its persistent indices buffer, pre-filled with -1.
    buffer = torch.full((rows + 2, 2 * k), -1, dtype=torch.int32, device=device)
    view = buffer[1:rows + 1, :k]
    vllm.top_k_per_row_prefill(logits, starts, ends, view, rows, logits.stride(0), logits.stride(1), k)
    native = poisoned((rows, k), device)
    OPS.top_k_per_row_prefill(logits, starts, ends, native, k, False)
    assert_same(view, native)
    assert bool((buffer[0] == -1).all() and (buffer[rows + 1] == -1).all() and (buffer[:, k:] == -1).all())
    with pytest.raises(ValueError, match=r"numRows must equal logits.size\(0\) = 6, got 5"):
        vllm.top_k_per_row_prefill(logits, starts, ends, view, rows - 1, logits.stride(0), 1, k)
    strides = r"\(stride0, stride1\) must equal logits.stride\(\) = \(303, 1\), got \(300, 1\)"
    with pytest.raises(ValueError, match=strides):
        vllm.top_k_per_row_prefill(logits, starts, ends, view, rows, width, 1, k)


@pytest.mark.parametrize("two_d", [False, True], ids=["seq_lens_1d", "seq_lens_2d"])
def test_top_k_per_row_decode_as_vllm_calls_it(device, two_d):
    batch, next_n, width, k = 3, 2, 400, 32
    rows = batch * next_n
    logits = padded_logits(rows, width, device, seed=1)
    shape = (batch, next_n) if two_d else (batch,)
    seq_lens = torch.randint(1, width + 1, shape, generator=torch.Generator().manual_seed(2), dtype=torch.int32)
    seq_lens = seq_lens.to(device)
    indices = poisoned((rows, k), device)
    vllm.top_k_per_row_decode(logits, next_n, seq_lens, indices, rows, logits.stride(0), logits.stride(1), k)
    native = poisoned((rows, k), device)
    OPS.top_k_per_row_decode(logits, next_n, seq_lens, native, k, False)
    assert_same(indices, native)
    with pytest.raises(ValueError, match="numRows"):
        vllm.top_k_per_row_decode(logits, next_n, seq_lens, indices, rows + 1, logits.stride(0), 1, k)


def test_ragged_graph_buffers_replace_build_then_copy(device):
    rows, width, num_kv = 5, 8, 50
    g = torch.Generator().manual_seed(3)
    dense = torch.randint(-5, 60, (rows, width), generator=g, dtype=torch.int32).to(device)
    lengths = torch.tensor([3, 0, 8, 11, -1], dtype=torch.int32, device=device)
    indices_buffer, indptr_buffer = poisoned((rows * width + 9,), device), poisoned((rows + 4,), device)
    ragged, indptr = vllm.build_ragged_into_graph_buffers(dense, lengths, indices_buffer, indptr_buffer, rows, width,
                                                          num_kv)
    # vLLM's copy returns these views of its persistent buffers.
    assert ragged.data_ptr() == indices_buffer.data_ptr() and ragged.numel() == rows * width
    assert indptr.data_ptr() == indptr_buffer.data_ptr() and indptr.numel() == rows + 1
    want_values, want_indptr = ref.ragged_pack(dense, lengths)
    want_values = torch.where((want_values < 0) | (want_values >= num_kv), -1, want_values)
    nnz = int(want_indptr[-1])
    assert torch.equal(indptr.cpu(), want_indptr)
    assert torch.equal(ragged[:nnz].cpu(), want_values)
    assert bool((indices_buffer[nnz:] == SENTINEL).all()), "wrote past indptr[R]"
    with pytest.raises(ValueError, match=r"indices must be \[num_rows=5, W <= max_entries_per_row=4\]"):
        vllm.build_ragged_into_graph_buffers(dense, lengths, indices_buffer, indptr_buffer, rows, 4)
