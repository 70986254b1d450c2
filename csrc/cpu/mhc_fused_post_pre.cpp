// Post then pre, token by token: the pre half reads the bf16 residual the post half just stored
// (§3.7), while that token is still in cache.
#include "mhc_post_token.h"
#include "mhc_pre_token.h"

namespace dsv4::cpu {

void mhc_fused_post_pre(const MhcFusedParams& p, const Executor& ex) {
  const int n = p.pre.hc_mult;
  parallel_for(ex, p.pre.tokens, token_grain(n, p.pre.hidden), [&](int64_t begin, int64_t end) {
    TokenScratch scratch(n, p.pre.hidden);
    for (int64_t t = begin; t < end; ++t) {
      mhc_post_token(p.post, t, scratch);
      mhc_pre_token(p.pre, t, scratch);
    }
  });
}

}  // namespace dsv4::cpu
