// One token of hc_head (§3.8), shared by hc_head and the head half of mhc_post_hc_head: n projections,
// one RMS statistic, sigmoid weights, weighted sum of the streams, one rounding.
#pragma once

#include "cpu_ops.h"
#include "mhc_token.h"

namespace dsv4::cpu {

// `streams` is the token's [n, D] bf16 input; writes p.layer_input[t].
inline void hc_head_token(const MhcPreParams& p, const bf16* streams, int64_t t, TokenScratch& s) {
  const int n = p.hc_mult;
  const int64_t k = int64_t(n) * p.hidden;
  upcast(streams, k, s.x.data());
  float g[kMaxHcMult];
  project(s.x.data(), p.fn, n, k, g);
  const float r = rms_factor(blocked_dot(s.x.data(), s.x.data(), k), k, p.scalars.rms_eps);
  float pre[kMaxHcMult];
  hc_head_token_weights(g, r, p.hc_scale[0], p.hc_base, n, p.scalars.hc_pre_eps, pre);
  collapse_streams(s.x.data(), pre, n, p.hidden, nullptr, 0.0f, s.y.data(), p.layer_input + t * p.hidden);
}

}  // namespace dsv4::cpu
