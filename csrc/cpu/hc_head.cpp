// hc_head (§3.8): n projections, one RMS statistic, sigmoid weights, weighted sum of the streams.
#include "hc_head_token.h"

namespace dsv4::cpu {

void hc_head(const MhcPreParams& p, const Executor& ex) {
  const int64_t k = int64_t(p.hc_mult) * p.hidden;
  parallel_for(ex, p.tokens, token_grain(p.hc_mult, p.hidden), [&](int64_t begin, int64_t end) {
    TokenScratch s(p.hc_mult, p.hidden);
    for (int64_t t = begin; t < end; ++t) hc_head_token(p, p.residual + t * k, t, s);
  });
}

}  // namespace dsv4::cpu
