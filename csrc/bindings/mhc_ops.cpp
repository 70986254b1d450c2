// Entry points of the mHC ops (../shared/spec/ops.md §3): validation, outputs, params.
#include <cmath>

#include <torch/csrc/stable/ops.h>

#include "dispatch.h"
#include "ops.h"

namespace dsv4::binding {

namespace {

using Sizes = std::vector<int64_t>;

// Shape facts of a residual-like [..., n, D] bf16 tensor.
struct StreamShape {
  Sizes lead;  // the leading dims, flattened into T tokens
  int64_t tokens = 1;
  int n = 0;
  int64_t hidden = 0;

  Sizes with(std::initializer_list<int64_t> tail) const {
    Sizes s = lead;
    s.insert(s.end(), tail);
    return s;
  }
};

StreamShape check_streams(const ArgCheck& c, const Tensor& t, const char* name) {
  c.dtype(t, name, ScalarType::BFloat16);
  c.require(t.dim() >= 2, name, " must be [..., n, D] (at least 2-D), got shape ", shape_string(t));
  c.contiguous(t, name);
  StreamShape s;
  const Sizes sizes = t.sizes().vec();
  s.lead.assign(sizes.begin(), sizes.end() - 2);
  for (int64_t d : s.lead) s.tokens *= d;
  const int64_t n = sizes[sizes.size() - 2];
  s.hidden = sizes.back();
  c.require(n >= 1 && n <= kMaxHcMult, name, ".shape[-2] (hc_mult n) must be in 1..", kMaxHcMult,
            ", got ", n, " (shape ", shape_string(t), ")");
  c.require(s.hidden >= 1, name, ".shape[-1] (D) must be >= 1, got shape ", shape_string(t));
  s.n = int(n);
  return s;
}

void check_fp32(const ArgCheck& c, const Tensor& t, const char* name, const Sizes& want, const Tensor& ref,
                const char* ref_name) {
  c.same_device(t, name, ref, ref_name);
  c.dtype(t, name, ScalarType::Float);
  c.shape(t, name, want);
  c.contiguous(t, name);
}

// The (validated) mix weights and the sizes, into `p`.
void set_mix_weights(const StreamShape& s, const Tensor& fn, const Tensor& hc_scale, const Tensor& hc_base,
                     MhcPreParams& p) {
  p.fn = static_cast<const float*>(fn.const_data_ptr());
  p.hc_scale = static_cast<const float*>(hc_scale.const_data_ptr());
  p.hc_base = static_cast<const float*>(hc_base.const_data_ptr());
  p.tokens = s.tokens;
  p.hc_mult = s.n;
  p.hidden = s.hidden;
}

// The optional norm_weight [D] bf16 (null when not given).
const bf16* norm_weight_of(const ArgCheck& c, const StreamShape& s, const Tensor& residual,
                           const char* residual_name, const std::optional<Tensor>& norm_weight) {
  if (!norm_weight.has_value()) return nullptr;
  const Tensor& w = *norm_weight;
  c.same_device(w, "norm_weight", residual, residual_name);
  c.dtype(w, "norm_weight", ScalarType::BFloat16);
  c.shape(w, "norm_weight", {s.hidden});
  c.contiguous(w, "norm_weight");
  return static_cast<const bf16*>(w.const_data_ptr());
}

// fn [n, n*D] / hc_scale [1] / hc_base [n] / rms_eps / hc_eps of a head mix, into `p`.
void fill_head(const ArgCheck& c, const StreamShape& s, const Tensor& streams, const char* streams_name,
               const Tensor& fn, const Tensor& hc_scale, const Tensor& hc_base, double rms_eps, double hc_eps,
               MhcPreParams& p) {
  check_fp32(c, fn, "fn", {s.n, s.n * s.hidden}, streams, streams_name);
  check_fp32(c, hc_scale, "hc_scale", {1}, streams, streams_name);
  check_fp32(c, hc_base, "hc_base", {s.n}, streams, streams_name);
  c.non_negative(rms_eps, "rms_eps");
  c.non_negative(hc_eps, "hc_eps");
  set_mix_weights(s, fn, hc_scale, hc_base, p);
  p.scalars.rms_eps = float(rms_eps);
  p.scalars.hc_pre_eps = float(hc_eps);
}

// True when the byte ranges of two tensors overlap.
bool overlaps(const Tensor& a, const Tensor& b) {
  const auto* pa = static_cast<const char*>(a.const_data_ptr());
  const auto* pb = static_cast<const char*>(b.const_data_ptr());
  const int64_t na = a.numel() * int64_t(a.element_size()), nb = b.numel() * int64_t(b.element_size());
  return na > 0 && nb > 0 && pa < pb + nb && pb < pa + na;
}

// fn [M3, fn_width] / hc_scale / hc_base / norm_weight / scalars of one sub-layer's pre, into `p`.
void fill_pre(const ArgCheck& c, const StreamShape& s, const Tensor& residual, const char* residual_name,
              int64_t fn_width, const Tensor& fn, const Tensor& hc_scale, const Tensor& hc_base,
              double rms_eps, double hc_pre_eps, double hc_sinkhorn_eps, double hc_post_mult_value,
              int64_t sinkhorn_repeat, const std::optional<Tensor>& norm_weight, double norm_eps,
              MhcPreParams& p) {
  const int64_t m3 = mhc_mix_rows(s.n);
  check_fp32(c, fn, "fn", {m3, fn_width}, residual, residual_name);
  check_fp32(c, hc_scale, "hc_scale", {3}, residual, residual_name);
  check_fp32(c, hc_base, "hc_base", {m3}, residual, residual_name);
  c.non_negative(rms_eps, "rms_eps");
  c.non_negative(hc_pre_eps, "hc_pre_eps");
  c.non_negative(hc_sinkhorn_eps, "hc_sinkhorn_eps");
  c.non_negative(norm_eps, "norm_eps");
  c.require(std::isfinite(hc_post_mult_value), "hc_post_mult_value must be finite, got ",
            hc_post_mult_value);
  c.require(sinkhorn_repeat >= 1 && sinkhorn_repeat <= (1 << 20),
            "sinkhorn_repeat must be in 1..1048576, got ", sinkhorn_repeat);
  p.norm_weight = norm_weight_of(c, s, residual, residual_name, norm_weight);
  set_mix_weights(s, fn, hc_scale, hc_base, p);
  p.scalars = MhcPreScalars{float(rms_eps),  float(hc_pre_eps), float(hc_sinkhorn_eps),
                            float(hc_post_mult_value), int(sinkhorn_repeat), float(norm_eps)};
}

// The three outputs of a pre: post_mix [..., n, 1], comb_mix [..., n, n], layer_input [..., D].
std::tuple<Tensor, Tensor, Tensor> new_pre_outputs(const StreamShape& s, const Tensor& like, MhcPreParams& p) {
  Tensor post = torch::stable::new_empty(like, s.with({s.n, 1}), ScalarType::Float);
  Tensor comb = torch::stable::new_empty(like, s.with({s.n, s.n}), ScalarType::Float);
  Tensor layer_input = torch::stable::new_empty(like, s.with({s.hidden}), ScalarType::BFloat16);
  p.post_mix = static_cast<float*>(post.mutable_data_ptr());
  p.comb_mix = static_cast<float*>(comb.mutable_data_ptr());
  p.layer_input = static_cast<bf16*>(layer_input.mutable_data_ptr());
  return {post, comb, layer_input};
}

// x [..., D], post_layer_mix [..., n, 1] or [..., n], comb_res_mix [..., n, n] against the residual.
void fill_post(const ArgCheck& c, const StreamShape& s, const Tensor& residual, const Tensor& x,
               const Tensor& post_layer_mix, const Tensor& comb_res_mix, MhcPostParams& p) {
  c.same_device(x, "x", residual, "residual");
  c.dtype(x, "x", ScalarType::BFloat16);
  c.shape(x, "x", s.with({s.hidden}));
  c.contiguous(x, "x");
  c.same_device(post_layer_mix, "post_layer_mix", residual, "residual");
  c.dtype(post_layer_mix, "post_layer_mix", ScalarType::Float);
  const Sizes post_sizes = post_layer_mix.sizes().vec();
  c.require(post_sizes == s.with({s.n, 1}) || post_sizes == s.with({s.n}),
            "post_layer_mix must be [..., n, 1] or [..., n] with the leading dims and n of residual ",
            shape_string(residual), ", got ", shape_string(post_layer_mix));
  c.contiguous(post_layer_mix, "post_layer_mix");
  check_fp32(c, comb_res_mix, "comb_res_mix", s.with({s.n, s.n}), residual, "residual");
  p.x = static_cast<const bf16*>(x.const_data_ptr());
  p.residual = static_cast<const bf16*>(residual.const_data_ptr());
  p.post_mix = static_cast<const float*>(post_layer_mix.const_data_ptr());
  p.comb_mix = static_cast<const float*>(comb_res_mix.const_data_ptr());
  p.tokens = s.tokens;
  p.hc_mult = s.n;
  p.hidden = s.hidden;
}

// The carried pre_mix [..., n] fp32 of a delayed pre (null when not given) and the new_pre output
// [..., n] fp32, into `p`.
Tensor fill_delayed(const ArgCheck& c, const StreamShape& s, const Tensor& residual,
                    const std::optional<Tensor>& pre_mix, MhcPreDelayedParams& p) {
  if (pre_mix.has_value()) {
    check_fp32(c, *pre_mix, "pre_mix", s.with({s.n}), residual, "residual");
    p.pre_mix = static_cast<const float*>(pre_mix->const_data_ptr());
  }
  Tensor new_pre = torch::stable::new_empty(residual, s.with({s.n}), ScalarType::Float);
  p.new_pre = static_cast<float*>(new_pre.mutable_data_ptr());
  return new_pre;
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> mhc_pre(Tensor residual, Tensor fn, Tensor hc_scale, Tensor hc_base,
                                           double rms_eps, double hc_pre_eps, double hc_sinkhorn_eps,
                                           double hc_post_mult_value, int64_t sinkhorn_repeat,
                                           std::optional<Tensor> norm_weight, double norm_eps) {
  const ArgCheck c("mhc_pre");
  const StreamShape s = check_streams(c, residual, "residual");
  MhcPreParams p{};
  fill_pre(c, s, residual, "residual", s.n * s.hidden, fn, hc_scale, hc_base, rms_eps, hc_pre_eps, hc_sinkhorn_eps,
           hc_post_mult_value, sinkhorn_repeat, norm_weight, norm_eps, p);
  p.residual = static_cast<const bf16*>(residual.const_data_ptr());
  auto outs = new_pre_outputs(s, residual, p);
  if (s.tokens > 0) launch_mhc_pre(c, residual, p);
  return outs;
}

std::tuple<Tensor, Tensor, Tensor, Tensor> mhc_pre_delayed(
    Tensor residual, Tensor fn, Tensor hc_scale, Tensor hc_base, double rms_eps, double hc_pre_eps,
    double hc_sinkhorn_eps, double hc_post_mult_value, int64_t sinkhorn_repeat, std::optional<Tensor> pre_mix,
    std::optional<Tensor> x, std::optional<Tensor> norm_weight, double norm_eps) {
  const ArgCheck c("mhc_pre_delayed");
  const StreamShape s = check_streams(c, residual, "residual");
  MhcPreDelayedParams p{};
  // The broadcast entry projects x alone, so fn has width D there.
  fill_pre(c, s, residual, "residual", x.has_value() ? s.hidden : s.n * s.hidden, fn, hc_scale, hc_base,
           rms_eps, hc_pre_eps, hc_sinkhorn_eps, hc_post_mult_value, sinkhorn_repeat, norm_weight, norm_eps,
           p.pre);
  p.pre.residual = static_cast<const bf16*>(residual.const_data_ptr());
  if (x.has_value()) {
    c.same_device(*x, "x", residual, "residual");
    c.dtype(*x, "x", ScalarType::BFloat16);
    c.shape(*x, "x", s.with({s.hidden}));
    c.contiguous(*x, "x");
    p.x = static_cast<const bf16*>(x->const_data_ptr());
  }
  Tensor new_pre = fill_delayed(c, s, residual, pre_mix, p);
  auto [post, comb, layer_input] = new_pre_outputs(s, residual, p.pre);
  if (s.tokens > 0) launch_mhc_pre_delayed(c, residual, p);
  return {post, comb, layer_input, new_pre};
}

Tensor mhc_post(Tensor x, Tensor residual, Tensor post_layer_mix, Tensor comb_res_mix) {
  const ArgCheck c("mhc_post");
  const StreamShape s = check_streams(c, residual, "residual");
  MhcPostParams p{};
  fill_post(c, s, residual, x, post_layer_mix, comb_res_mix, p);
  Tensor out = torch::stable::new_empty(residual, residual.sizes());
  p.out = static_cast<bf16*>(out.mutable_data_ptr());
  if (s.tokens > 0) launch_mhc_post(c, residual, p);
  return out;
}

std::tuple<Tensor, Tensor, Tensor, Tensor> mhc_fused_post_pre(
    Tensor x, Tensor residual, Tensor post_layer_mix, Tensor comb_res_mix, Tensor fn, Tensor hc_scale,
    Tensor hc_base, double rms_eps, double hc_pre_eps, double hc_sinkhorn_eps, double hc_post_mult_value,
    int64_t sinkhorn_repeat, std::optional<Tensor> norm_weight, double norm_eps) {
  const ArgCheck c("mhc_fused_post_pre");
  const StreamShape s = check_streams(c, residual, "residual");
  MhcFusedParams p{};
  fill_post(c, s, residual, x, post_layer_mix, comb_res_mix, p.post);
  fill_pre(c, s, residual, "residual", s.n * s.hidden, fn, hc_scale, hc_base, rms_eps, hc_pre_eps, hc_sinkhorn_eps,
           hc_post_mult_value, sinkhorn_repeat, norm_weight, norm_eps, p.pre);
  Tensor residual_out = torch::stable::new_empty(residual, residual.sizes());
  p.post.out = static_cast<bf16*>(residual_out.mutable_data_ptr());
  p.pre.residual = p.post.out;
  auto [post, comb, layer_input] = new_pre_outputs(s, residual, p.pre);
  if (s.tokens > 0) launch_mhc_fused_post_pre(c, residual, p);
  return {residual_out, post, comb, layer_input};
}

std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor> mhc_fused_post_pre_delayed(
    Tensor x, Tensor residual, Tensor post_layer_mix, Tensor comb_res_mix, Tensor fn, Tensor hc_scale,
    Tensor hc_base, double rms_eps, double hc_pre_eps, double hc_sinkhorn_eps, double hc_post_mult_value,
    int64_t sinkhorn_repeat, std::optional<Tensor> pre_mix, std::optional<Tensor> norm_weight, double norm_eps) {
  const ArgCheck c("mhc_fused_post_pre_delayed");
  const StreamShape s = check_streams(c, residual, "residual");
  MhcFusedDelayedParams p{};
  fill_post(c, s, residual, x, post_layer_mix, comb_res_mix, p.post);
  fill_pre(c, s, residual, "residual", s.n * s.hidden, fn, hc_scale, hc_base, rms_eps, hc_pre_eps, hc_sinkhorn_eps,
           hc_post_mult_value, sinkhorn_repeat, norm_weight, norm_eps, p.pre.pre);
  Tensor residual_out = torch::stable::new_empty(residual, residual.sizes());
  p.post.out = static_cast<bf16*>(residual_out.mutable_data_ptr());
  p.pre.pre.residual = p.post.out;  // the delayed pre reads the stored bf16 residual_out
  p.pre.x = nullptr;
  auto [post, comb, layer_input] = new_pre_outputs(s, residual, p.pre.pre);
  Tensor new_pre = fill_delayed(c, s, residual, pre_mix, p.pre);
  if (s.tokens > 0) launch_mhc_fused_post_pre_delayed(c, residual, p);
  return {residual_out, post, comb, layer_input, new_pre};
}

Tensor sinkhorn(Tensor logits, int64_t repeat, double eps) {
  const ArgCheck c("sinkhorn");
  c.dtype(logits, "logits", ScalarType::Float);
  c.require(logits.dim() >= 2 && logits.size(-1) == logits.size(-2), "logits must be [..., n, n], got shape ",
            shape_string(logits));
  const int64_t n = logits.size(-1);
  c.require(n >= 1 && n <= kMaxHcMult, "logits.shape[-1] (n) must be in 1..", kMaxHcMult, ", got ", n);
  c.contiguous(logits, "logits");
  c.require(repeat >= 1 && repeat <= (1 << 20), "repeat must be in 1..1048576, got ", repeat);
  c.non_negative(eps, "eps");
  Tensor out = torch::stable::new_empty(logits, logits.sizes());
  SinkhornParams p{static_cast<const float*>(logits.const_data_ptr()), static_cast<float*>(out.mutable_data_ptr()),
                   logits.numel() / (n * n), int(n), int(repeat), float(eps)};
  if (p.batch > 0) launch_sinkhorn(c, logits, p);
  return out;
}

Tensor hc_head(Tensor hidden_states, Tensor fn, Tensor hc_scale, Tensor hc_base, double rms_eps,
               double hc_eps) {
  const ArgCheck c("hc_head");
  const StreamShape s = check_streams(c, hidden_states, "hidden_states");
  MhcPreParams p{};
  fill_head(c, s, hidden_states, "hidden_states", fn, hc_scale, hc_base, rms_eps, hc_eps, p);
  p.residual = static_cast<const bf16*>(hidden_states.const_data_ptr());
  Tensor out = torch::stable::new_empty(hidden_states, s.with({s.hidden}));
  p.layer_input = static_cast<bf16*>(out.mutable_data_ptr());
  if (s.tokens > 0) launch_hc_head(c, hidden_states, p);
  return out;
}

Tensor mhc_post_hc_head(Tensor x, Tensor residual, Tensor post_layer_mix, Tensor comb_res_mix, Tensor fn,
                        Tensor hc_scale, Tensor hc_base, double rms_eps, double hc_eps,
                        std::optional<Tensor> norm_weight, double norm_eps, std::optional<Tensor> streams_out) {
  const ArgCheck c("mhc_post_hc_head");
  const StreamShape s = check_streams(c, residual, "residual");
  MhcPostHeadParams p{};
  fill_post(c, s, residual, x, post_layer_mix, comb_res_mix, p.post);
  fill_head(c, s, residual, "residual", fn, hc_scale, hc_base, rms_eps, hc_eps, p.pre);
  p.pre.norm_weight = norm_weight_of(c, s, residual, "residual", norm_weight);
  c.non_negative(norm_eps, "norm_eps");
  p.pre.scalars.norm_eps = float(norm_eps);
  p.post.out = nullptr;
  if (streams_out.has_value()) {
    const Tensor& so = *streams_out;
    c.same_device(so, "streams_out", residual, "residual");
    c.dtype(so, "streams_out", ScalarType::BFloat16);
    c.shape(so, "streams_out", residual.sizes().vec());
    c.contiguous(so, "streams_out");
    c.require(!overlaps(so, residual) && !overlaps(so, x),
              "streams_out must not overlap residual or x (the new streams are computed from them), got "
              "overlapping storage");
    p.post.out = static_cast<bf16*>(so.mutable_data_ptr());
  }
  Tensor out = torch::stable::new_empty(residual, s.with({s.hidden}));
  p.pre.layer_input = static_cast<bf16*>(out.mutable_data_ptr());
  if (s.tokens > 0) launch_mhc_post_hc_head(c, residual, p);
  return out;
}

}  // namespace dsv4::binding
