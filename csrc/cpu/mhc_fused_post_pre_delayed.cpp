// DeepSeek-V4.1's seam, token by token: mhc_post stores the bf16 residual_out, then the delayed pre
// reads those stored values while the token is in cache (projection, mixes, new pre weights, and the
// collapse with the carried pre_mix): bitwise mhc_post followed by mhc_pre_delayed on its output.
#include "mhc_post_token.h"
#include "mhc_pre_delayed_token.h"

namespace dsv4::cpu {

void mhc_fused_post_pre_delayed(const MhcFusedDelayedParams& p, const Executor& ex) {
  const MhcPreParams& q = p.pre.pre;
  parallel_for(ex, q.tokens, token_grain(q.hc_mult, q.hidden), [&](int64_t begin, int64_t end) {
    TokenScratch scratch(q.hc_mult, q.hidden);
    for (int64_t t = begin; t < end; ++t) {
      mhc_post_token(p.post, t, scratch);
      mhc_pre_delayed_token(p.pre, t, scratch);
    }
  });
}

}  // namespace dsv4::cpu
