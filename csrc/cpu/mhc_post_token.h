// One token of mhc_post (§3.6): out[j, d] = bf16(post[j] * x[d] + sum_i comb[i, j] * R[i, d]).
// The comb matrix is applied transposed: i (first index) is the source stream.
#pragma once

#include "cpu_ops.h"
#include "mhc_token.h"

namespace dsv4::cpu {

// Writes token t's n new streams to `out` ([n, D]); s.x holds the upcast source streams afterwards.
inline void mhc_post_token_into(const MhcPostParams& p, int64_t t, TokenScratch& s, bf16* out_token) {
  const int n = p.hc_mult;
  const int64_t hidden = p.hidden;
  const int64_t k = int64_t(n) * hidden;
  upcast(p.residual + t * k, k, s.x.data());
  const bf16* x = p.x + t * hidden;
  const float* post = p.post_mix + t * n;
  const float* comb = p.comb_mix + t * n * n;
  float* acc = s.y.data();
  for (int j = 0; j < n; ++j) {
    for (int64_t d = 0; d < hidden; ++d) acc[d] = post[j] * to_float(x[d]);
    for (int i = 0; i < n; ++i) {
      const float c = comb[i * n + j];
      const float* ri = s.x.data() + int64_t(i) * hidden;
      for (int64_t d = 0; d < hidden; ++d) acc[d] += c * ri[d];
    }
    bf16* out = out_token + int64_t(j) * hidden;
    for (int64_t d = 0; d < hidden; ++d) out[d] = to_bf16(acc[d]);
  }
}

inline void mhc_post_token(const MhcPostParams& p, int64_t t, TokenScratch& s) {
  mhc_post_token_into(p, t, s, p.out + t * int64_t(p.hc_mult) * p.hidden);
}

}  // namespace dsv4::cpu
