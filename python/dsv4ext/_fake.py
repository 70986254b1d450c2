"""Fake (meta) implementations: output shapes and dtypes only, never data, so every op traces under
torch.compile and FakeTensorMode. Preconditions the shapes depend on are stated with torch._check."""

import torch
from torch.library import register_fake


def _stream_shape(t: torch.Tensor, name: str):
    torch._check(t.dim() >= 2, lambda: f"{name} must be [..., n, D]")
    torch._check(t.dtype == torch.bfloat16, lambda: f"{name} must be bfloat16")
    return tuple(t.shape[:-2]), t.shape[-2], t.shape[-1]


def _pre_outputs(residual: torch.Tensor):
    lead, n, d = _stream_shape(residual, "residual")
    return (
        residual.new_empty((*lead, n, 1), dtype=torch.float32),
        residual.new_empty((*lead, n, n), dtype=torch.float32),
        residual.new_empty((*lead, d), dtype=torch.bfloat16),
    )


@register_fake("dsv4ext::mhc_pre")
def _mhc_pre(residual, fn, hc_scale, hc_base, rms_eps, hc_pre_eps, hc_sinkhorn_eps, hc_post_mult_value,
             sinkhorn_repeat, norm_weight=None, norm_eps=1e-6):
    return _pre_outputs(residual)


@register_fake("dsv4ext::mhc_pre_delayed")
def _mhc_pre_delayed(residual, fn, hc_scale, hc_base, rms_eps, hc_pre_eps, hc_sinkhorn_eps, hc_post_mult_value,
                     sinkhorn_repeat, pre_mix=None, x=None, norm_weight=None, norm_eps=1e-6):
    post, comb, layer_input = _pre_outputs(residual)
    return post, comb, layer_input, post.new_empty(post.shape[:-1])


@register_fake("dsv4ext::mhc_post")
def _mhc_post(x, residual, post_layer_mix, comb_res_mix):
    _stream_shape(residual, "residual")
    return torch.empty_like(residual, memory_format=torch.contiguous_format)


@register_fake("dsv4ext::mhc_fused_post_pre")
def _mhc_fused_post_pre(x, residual, post_layer_mix, comb_res_mix, fn, hc_scale, hc_base, rms_eps, hc_pre_eps,
                        hc_sinkhorn_eps, hc_post_mult_value, sinkhorn_repeat, norm_weight=None, norm_eps=1e-6):
    return (torch.empty_like(residual, memory_format=torch.contiguous_format), *_pre_outputs(residual))


@register_fake("dsv4ext::mhc_fused_post_pre_delayed")
def _mhc_fused_post_pre_delayed(x, residual, post_layer_mix, comb_res_mix, fn, hc_scale, hc_base, rms_eps,
                                hc_pre_eps, hc_sinkhorn_eps, hc_post_mult_value, sinkhorn_repeat, pre_mix=None,
                                norm_weight=None, norm_eps=1e-6):
    post, comb, layer_input = _pre_outputs(residual)
    return (torch.empty_like(residual, memory_format=torch.contiguous_format), post, comb, layer_input,
            post.new_empty(post.shape[:-1]))


@register_fake("dsv4ext::sinkhorn")
def _sinkhorn(logits, repeat, eps):
    torch._check(logits.dim() >= 2, lambda: "logits must be [..., n, n]")
    return torch.empty_like(logits, memory_format=torch.contiguous_format)


@register_fake("dsv4ext::hc_head")
def _hc_head(hidden_states, fn, hc_scale, hc_base, rms_eps, hc_eps):
    lead, _, d = _stream_shape(hidden_states, "hidden_states")
    return hidden_states.new_empty((*lead, d), dtype=torch.bfloat16)


@register_fake("dsv4ext::mhc_post_hc_head")
def _mhc_post_hc_head(x, residual, post_layer_mix, comb_res_mix, fn, hc_scale, hc_base, rms_eps, hc_eps,
                      norm_weight=None, norm_eps=1e-6, streams_out=None):
    lead, _, d = _stream_shape(residual, "residual")
    if streams_out is not None:
        torch._check(streams_out.shape == residual.shape, lambda: "streams_out must have residual's shape")
    return residual.new_empty((*lead, d), dtype=torch.bfloat16)


@register_fake("dsv4ext::top_k_per_row_prefill")
def _top_k_per_row_prefill(logits, row_starts, row_ends, indices, top_k, deterministic=False):
    torch._check(indices.dim() == 2 and indices.shape[1] == top_k, lambda: "indices must be [R, top_k]")
    return None


@register_fake("dsv4ext::top_k_per_row_decode")
def _top_k_per_row_decode(logits, next_n, seq_lens, indices, top_k, deterministic=False):
    torch._check(indices.dim() == 2 and indices.shape[1] == top_k, lambda: "indices must be [R, top_k]")
    return None


@register_fake("dsv4ext::ragged_pack")
def _ragged_pack(dense, lengths, indices_out, indptr_out, num_kv=-1, fill=-1):
    return None
