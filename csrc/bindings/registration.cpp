// The single schema block (names and argument orders are the vLLM-compatible contract of the
// foundation issue) and one implementation per dispatch key. A ROCm torch uses the CUDA key too.
#include <torch/csrc/stable/library.h>

#include "ops.h"

STABLE_TORCH_LIBRARY(dsv4ext, m) {
  // mHC (../shared/spec/ops.md)
  m.def("mhc_pre(Tensor residual, Tensor fn, Tensor hc_scale, Tensor hc_base, float rms_eps, "
        "float hc_pre_eps, float hc_sinkhorn_eps, float hc_post_mult_value, int sinkhorn_repeat, "
        "Tensor? norm_weight=None, float norm_eps=1e-6) -> (Tensor post_mix, Tensor comb_mix, "
        "Tensor layer_input)");
  m.def("mhc_pre_delayed(Tensor residual, Tensor fn, Tensor hc_scale, Tensor hc_base, float rms_eps, "
        "float hc_pre_eps, float hc_sinkhorn_eps, float hc_post_mult_value, int sinkhorn_repeat, "
        "Tensor? pre_mix=None, Tensor? x=None, Tensor? norm_weight=None, float norm_eps=1e-6) -> "
        "(Tensor post_mix, Tensor comb_mix, Tensor layer_input, Tensor new_pre)");
  m.def("mhc_post(Tensor x, Tensor residual, Tensor post_layer_mix, Tensor comb_res_mix) -> Tensor");
  m.def("mhc_fused_post_pre(Tensor x, Tensor residual, Tensor post_layer_mix, Tensor comb_res_mix, "
        "Tensor fn, Tensor hc_scale, Tensor hc_base, float rms_eps, float hc_pre_eps, "
        "float hc_sinkhorn_eps, float hc_post_mult_value, int sinkhorn_repeat, "
        "Tensor? norm_weight=None, float norm_eps=1e-6) -> (Tensor residual_out, Tensor post_mix, "
        "Tensor comb_mix, Tensor layer_input)");
  m.def("mhc_fused_post_pre_delayed(Tensor x, Tensor residual, Tensor post_layer_mix, Tensor comb_res_mix, "
        "Tensor fn, Tensor hc_scale, Tensor hc_base, float rms_eps, float hc_pre_eps, "
        "float hc_sinkhorn_eps, float hc_post_mult_value, int sinkhorn_repeat, Tensor? pre_mix=None, "
        "Tensor? norm_weight=None, float norm_eps=1e-6) -> (Tensor residual_out, Tensor post_mix, "
        "Tensor comb_mix, Tensor layer_input, Tensor new_pre)");
  m.def("mhc_post_hc_head(Tensor x, Tensor residual, Tensor post_layer_mix, Tensor comb_res_mix, "
        "Tensor fn, Tensor hc_scale, Tensor hc_base, float rms_eps, float hc_eps, "
        "Tensor? norm_weight=None, float norm_eps=1e-6, Tensor(a!)? streams_out=None) -> Tensor");
  m.def("sinkhorn(Tensor logits, int repeat, float eps) -> Tensor");
  m.def("hc_head(Tensor hidden_states, Tensor fn, Tensor hc_scale, Tensor hc_base, float rms_eps, "
        "float hc_eps) -> Tensor");
  // top-k and ragged pack (../shared/spec/topk.md)
  m.def("top_k_per_row_prefill(Tensor logits, Tensor row_starts, Tensor row_ends, Tensor(a!) indices, "
        "int top_k, bool deterministic=False) -> ()");
  m.def("top_k_per_row_decode(Tensor logits, int next_n, Tensor seq_lens, Tensor(a!) indices, "
        "int top_k, bool deterministic=False) -> ()");
  m.def("ragged_pack(Tensor dense, Tensor lengths, Tensor(a!) indices_out, Tensor(b!) indptr_out, "
        "int num_kv=-1, int fill=-1) -> ()");
}

#define DSV4EXT_IMPLS(m)                                                        \
  m.impl("mhc_pre", TORCH_BOX(&dsv4::binding::mhc_pre));                        \
  m.impl("mhc_pre_delayed", TORCH_BOX(&dsv4::binding::mhc_pre_delayed));        \
  m.impl("mhc_post", TORCH_BOX(&dsv4::binding::mhc_post));                      \
  m.impl("mhc_fused_post_pre", TORCH_BOX(&dsv4::binding::mhc_fused_post_pre));  \
  m.impl("mhc_fused_post_pre_delayed", TORCH_BOX(&dsv4::binding::mhc_fused_post_pre_delayed)); \
  m.impl("mhc_post_hc_head", TORCH_BOX(&dsv4::binding::mhc_post_hc_head));      \
  m.impl("sinkhorn", TORCH_BOX(&dsv4::binding::sinkhorn));                      \
  m.impl("hc_head", TORCH_BOX(&dsv4::binding::hc_head));                        \
  m.impl("top_k_per_row_prefill", TORCH_BOX(&dsv4::binding::top_k_per_row_prefill)); \
  m.impl("top_k_per_row_decode", TORCH_BOX(&dsv4::binding::top_k_per_row_decode));   \
  m.impl("ragged_pack", TORCH_BOX(&dsv4::binding::ragged_pack))

STABLE_TORCH_LIBRARY_IMPL(dsv4ext, CPU, m) { DSV4EXT_IMPLS(m); }

#if defined(DSV4EXT_WITH_CUDA) || defined(DSV4EXT_WITH_HIP)
STABLE_TORCH_LIBRARY_IMPL(dsv4ext, CUDA, m) { DSV4EXT_IMPLS(m); }
#endif
