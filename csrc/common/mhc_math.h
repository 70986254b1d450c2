// The per-token mHC math of ../shared/spec/ops.md §3.2-3.4, written once for the CPU, CUDA and HIP
// backends. Everything is fp32; the caller supplies the projection G and the sum of squares S.
#pragma once

#include <math.h>

#include "compat.h"

namespace dsv4 {

constexpr int kMaxHcMult = 8;

// Rows of fn / hc_base: n pre, n post, n*n comb logits.
DSV4_HD int mhc_mix_rows(int n) { return n * (n + 2); }

DSV4_HD float sigmoid(float z) { return 1.0f / (1.0f + expf(-z)); }

// r = 1/sqrt(S/K + eps): one RMS statistic over all n*D elements of a token (§3.2).
DSV4_HD float rms_factor(float sum_sq, int64_t k, float eps) {
  return 1.0f / sqrtf(sum_sq / float(k) + eps);
}

// §3.4 on one token's n x n logits, in place: row softmax, +eps, a column step, then
// (repeat-1) x (row step, column step).
DSV4_HD void sinkhorn_inplace(float* c, int n, int repeat, float eps) {
  for (int i = 0; i < n; ++i) {
    float* row = c + i * n;
    float mx = row[0];
    for (int j = 1; j < n; ++j) mx = fmaxf(mx, row[j]);
    float sum = 0.0f;
    for (int j = 0; j < n; ++j) {
      row[j] = expf(row[j] - mx);
      sum += row[j];
    }
    for (int j = 0; j < n; ++j) row[j] = row[j] / sum + eps;
  }
  for (int it = 0; it < repeat; ++it) {
    if (it > 0) {
      for (int i = 0; i < n; ++i) {
        float sum = 0.0f;
        for (int j = 0; j < n; ++j) sum += c[i * n + j];
        const float den = sum + eps;
        for (int j = 0; j < n; ++j) c[i * n + j] = c[i * n + j] / den;
      }
    }
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int i = 0; i < n; ++i) sum += c[i * n + j];
      const float den = sum + eps;
      for (int i = 0; i < n; ++i) c[i * n + j] = c[i * n + j] / den;
    }
  }
}

// Scalars of one mHC sub-layer (mhc_pre and the pre half of the fused op).
struct MhcPreScalars {
  float rms_eps;
  float hc_pre_eps;
  float hc_sinkhorn_eps;
  float hc_post_mult_value;
  int sinkhorn_repeat;
  float norm_eps;
};

// §3.2-3.4 for one token: mix = G*r, activations, Sinkhorn. `g` holds the M3 projections,
// `scale` = (alpha_pre, alpha_post, alpha_res), `base` the M3 biases. Writes pre[n], post[n], comb[n*n].
DSV4_HD void mhc_token_mixes(const float* g, float r, const float* scale, const float* base, int n,
                             const MhcPreScalars& s, float* pre, float* post, float* comb) {
  for (int i = 0; i < n; ++i) {
    pre[i] = sigmoid(g[i] * r * scale[0] + base[i]) + s.hc_pre_eps;
    post[i] = s.hc_post_mult_value * sigmoid(g[n + i] * r * scale[1] + base[n + i]);
  }
  for (int e = 0; e < n * n; ++e) comb[e] = g[2 * n + e] * r * scale[2] + base[2 * n + e];
  sinkhorn_inplace(comb, n, s.sinkhorn_repeat, s.hc_sinkhorn_eps);
}

// hc_head's weights (§3.8): pre[i] = sigmoid(G[i]*r*scale + base[i]) + eps.
DSV4_HD void hc_head_token_weights(const float* g, float r, float scale, const float* base, int n,
                                   float hc_eps, float* pre) {
  for (int i = 0; i < n; ++i) pre[i] = sigmoid(g[i] * r * scale + base[i]) + hc_eps;
}

// The GPU kernels' per-token step after their reduction, for a compile-time n: the RMS factor of
// the sum of squares over k elements, then mhc_pre's mixes (its post and comb rows copied to
// post_out / comb_out; Sinkhorn runs on a local copy, not in global memory) or hc_head's weights.
// Writes the n stream weights to w.
template <int N, bool kHead>
DSV4_HD void mhc_token_weights(const float* g, float sum_sq, int64_t k, const float* scale,
                               const float* base, const MhcPreScalars& s, float* post_out,
                               float* comb_out, float* w) {
  const float r = rms_factor(sum_sq, k, s.rms_eps);
  if constexpr (kHead) {
    hc_head_token_weights(g, r, scale[0], base, N, s.hc_pre_eps, w);
  } else {
    float post[N], comb[N * N];
    mhc_token_mixes(g, r, scale, base, N, s, w, post, comb);
    for (int i = 0; i < N; ++i) post_out[i] = post[i];
    for (int e = 0; e < N * N; ++e) comb_out[e] = comb[e];
  }
}

}  // namespace dsv4
