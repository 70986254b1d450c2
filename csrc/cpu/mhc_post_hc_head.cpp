// The model's final seam (spec §4.6), token by token: mhc_post into the bf16 streams (streams_out, or
// a per-worker buffer when it is not given), hc_head on those stored values while they are in cache,
// then the optional final RMSNorm on the rounded head output: exactly the three unfused ops.
#include <vector>

#include "hc_head_token.h"
#include "mhc_post_token.h"

namespace dsv4::cpu {

void mhc_post_hc_head(const MhcPostHeadParams& p, const Executor& ex) {
  const int n = p.pre.hc_mult;
  const int64_t hidden = p.pre.hidden, k = int64_t(n) * hidden;
  parallel_for(ex, p.pre.tokens, token_grain(n, hidden), [&](int64_t begin, int64_t end) {
    TokenScratch scratch(n, hidden);
    std::vector<bf16> local(p.post.out == nullptr ? size_t(k) : 0);
    for (int64_t t = begin; t < end; ++t) {
      bf16* streams = p.post.out != nullptr ? p.post.out + t * k : local.data();
      mhc_post_token_into(p.post, t, scratch, streams);
      hc_head_token(p.pre, streams, t, scratch);
      if (p.pre.norm_weight != nullptr)
        rms_norm_stored(p.pre.layer_input + t * hidden, hidden, p.pre.norm_weight, p.pre.scalars.norm_eps,
                        scratch.y.data());
    }
  });
}

}  // namespace dsv4::cpu
