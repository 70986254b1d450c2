// One token of mhc_pre_delayed (DeepSeek-V4.1), shared by mhc_pre_delayed and the pre half of
// mhc_fused_post_pre_delayed: mhc_pre's mixes, projected from x (broadcast entry) or the flattened
// residual; layer_input collapses the residual with the carried pre_mix, not the new pre weights.
#pragma once

#include "cpu_ops.h"
#include "mhc_token.h"

namespace dsv4::cpu {

inline void mhc_pre_delayed_token(const MhcPreDelayedParams& p, int64_t t, TokenScratch& s) {
  const MhcPreParams& q = p.pre;
  const int n = q.hc_mult;
  const int64_t k = p.x != nullptr ? q.hidden : int64_t(n) * q.hidden;
  const bf16* streams = q.residual + t * n * q.hidden;
  upcast(p.x != nullptr ? p.x + t * q.hidden : streams, k, s.x.data());
  float g[kMaxHcMult * (kMaxHcMult + 2)];
  project(s.x.data(), q.fn, mhc_mix_rows(n), k, g);
  const float r = rms_factor(blocked_dot(s.x.data(), s.x.data(), k), k, q.scalars.rms_eps);
  mhc_token_mixes(g, r, q.hc_scale, q.hc_base, n, q.scalars, p.new_pre + t * n, q.post_mix + t * n,
                  q.comb_mix + t * n * n);
  // Without a carried pre_mix the collapse is stream 0 alone (weight 1: exact, even for inf).
  const int m = p.pre_mix != nullptr ? n : 1;
  const float one = 1.0f;
  if (p.x != nullptr) upcast(streams, m * q.hidden, s.x.data());  // else s.x holds the streams
  collapse_streams(s.x.data(), p.pre_mix != nullptr ? p.pre_mix + t * n : &one, m, q.hidden, q.norm_weight,
                   q.scalars.norm_eps, s.y.data(), q.layer_input + t * q.hidden);
}

}  // namespace dsv4::cpu
