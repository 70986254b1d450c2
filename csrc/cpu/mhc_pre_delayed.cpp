// mhc_pre_delayed (DeepSeek-V4.1): token by token (mhc_pre_delayed_token.h).
#include "mhc_pre_delayed_token.h"

namespace dsv4::cpu {

void mhc_pre_delayed(const MhcPreDelayedParams& p, const Executor& ex) {
  const MhcPreParams& q = p.pre;
  parallel_for(ex, q.tokens, token_grain(q.hc_mult, q.hidden), [&](int64_t begin, int64_t end) {
    TokenScratch scratch(q.hc_mult, q.hidden);
    for (int64_t t = begin; t < end; ++t) mhc_pre_delayed_token(p, t, scratch);
  });
}

}  // namespace dsv4::cpu
