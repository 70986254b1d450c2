// The torch entry points, one per schema in registration.cpp. Each validates its arguments once,
// allocates outputs, fills the torch-free params and hands them to the dispatcher.
#pragma once

#include <optional>
#include <tuple>

#include <torch/csrc/stable/tensor.h>

namespace dsv4::binding {

using torch::stable::Tensor;

std::tuple<Tensor, Tensor, Tensor> mhc_pre(Tensor residual, Tensor fn, Tensor hc_scale, Tensor hc_base,
                                           double rms_eps, double hc_pre_eps, double hc_sinkhorn_eps,
                                           double hc_post_mult_value, int64_t sinkhorn_repeat,
                                           std::optional<Tensor> norm_weight, double norm_eps);
std::tuple<Tensor, Tensor, Tensor, Tensor> mhc_pre_delayed(
    Tensor residual, Tensor fn, Tensor hc_scale, Tensor hc_base, double rms_eps, double hc_pre_eps,
    double hc_sinkhorn_eps, double hc_post_mult_value, int64_t sinkhorn_repeat, std::optional<Tensor> pre_mix,
    std::optional<Tensor> x, std::optional<Tensor> norm_weight, double norm_eps);
Tensor mhc_post(Tensor x, Tensor residual, Tensor post_layer_mix, Tensor comb_res_mix);
std::tuple<Tensor, Tensor, Tensor, Tensor> mhc_fused_post_pre(
    Tensor x, Tensor residual, Tensor post_layer_mix, Tensor comb_res_mix, Tensor fn, Tensor hc_scale,
    Tensor hc_base, double rms_eps, double hc_pre_eps, double hc_sinkhorn_eps, double hc_post_mult_value,
    int64_t sinkhorn_repeat, std::optional<Tensor> norm_weight, double norm_eps);
std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor> mhc_fused_post_pre_delayed(
    Tensor x, Tensor residual, Tensor post_layer_mix, Tensor comb_res_mix, Tensor fn, Tensor hc_scale,
    Tensor hc_base, double rms_eps, double hc_pre_eps, double hc_sinkhorn_eps, double hc_post_mult_value,
    int64_t sinkhorn_repeat, std::optional<Tensor> pre_mix, std::optional<Tensor> norm_weight, double norm_eps);
Tensor mhc_post_hc_head(Tensor x, Tensor residual, Tensor post_layer_mix, Tensor comb_res_mix, Tensor fn,
                        Tensor hc_scale, Tensor hc_base, double rms_eps, double hc_eps,
                        std::optional<Tensor> norm_weight, double norm_eps, std::optional<Tensor> streams_out);
Tensor sinkhorn(Tensor logits, int64_t repeat, double eps);
Tensor hc_head(Tensor hidden_states, Tensor fn, Tensor hc_scale, Tensor hc_base, double rms_eps,
               double hc_eps);
void top_k_per_row_prefill(Tensor logits, Tensor row_starts, Tensor row_ends, Tensor indices,
                           int64_t top_k, bool deterministic);
void top_k_per_row_decode(Tensor logits, int64_t next_n, Tensor seq_lens, Tensor indices, int64_t top_k,
                          bool deterministic);
void ragged_pack(Tensor dense, Tensor lengths, Tensor indices_out, Tensor indptr_out, int64_t num_kv,
                 int64_t fill);

}  // namespace dsv4::binding
