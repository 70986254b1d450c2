// hc_head (§3.8): n projections, one RMS statistic, sigmoid weights, weighted sum of the streams.
#include "cpu_ops.h"
#include "mhc_token.h"

namespace dsv4::cpu {

void hc_head(const MhcPreParams& p, const Executor& ex) {
  const int n = p.hc_mult;
  const int64_t k = int64_t(n) * p.hidden;
  parallel_for(ex, p.tokens, token_grain(n, p.hidden), [&](int64_t begin, int64_t end) {
    TokenScratch s(n, p.hidden);
    for (int64_t t = begin; t < end; ++t) {
      upcast(p.residual + t * k, k, s.x.data());
      float g[kMaxHcMult];
      project(s.x.data(), p.fn, n, k, g);
      const float r = rms_factor(blocked_dot(s.x.data(), s.x.data(), k), k, p.scalars.rms_eps);
      float pre[kMaxHcMult];
      hc_head_token_weights(g, r, p.hc_scale[0], p.hc_base, n, p.scalars.hc_pre_eps, pre);
      collapse_streams(s.x.data(), pre, n, p.hidden, nullptr, 0.0f, s.y.data(),
                       p.layer_input + t * p.hidden);
    }
  });
}

}  // namespace dsv4::cpu
