// One token of mhc_pre (§3.1-3.5), shared by mhc_pre and the pre half of the fused op.
#pragma once

#include "cpu_ops.h"
#include "mhc_token.h"

namespace dsv4::cpu {

inline void mhc_pre_token(const MhcPreParams& p, int64_t t, TokenScratch& s) {
  const int n = p.hc_mult;
  const int64_t k = int64_t(n) * p.hidden;
  upcast(p.residual + t * k, k, s.x.data());
  float g[kMaxHcMult * (kMaxHcMult + 2)];
  project(s.x.data(), p.fn, mhc_mix_rows(n), k, g);
  const float r = rms_factor(blocked_dot(s.x.data(), s.x.data(), k), k, p.scalars.rms_eps);
  float pre[kMaxHcMult];
  mhc_token_mixes(g, r, p.hc_scale, p.hc_base, n, p.scalars, pre, p.post_mix + t * n,
                  p.comb_mix + t * n * n);
  collapse_streams(s.x.data(), pre, n, p.hidden, p.norm_weight, p.scalars.norm_eps, s.y.data(),
                   p.layer_input + t * p.hidden);
}

}  // namespace dsv4::cpu
