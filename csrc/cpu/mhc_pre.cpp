#include "mhc_pre_token.h"

namespace dsv4::cpu {

void mhc_pre(const MhcPreParams& p, const Executor& ex) {
  parallel_for(ex, p.tokens, token_grain(p.hc_mult, p.hidden), [&](int64_t begin, int64_t end) {
    TokenScratch scratch(p.hc_mult, p.hidden);
    for (int64_t t = begin; t < end; ++t) mhc_pre_token(p, t, scratch);
  });
}

}  // namespace dsv4::cpu
