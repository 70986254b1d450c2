#include "cpu_ops.h"

namespace dsv4::cpu {

void sinkhorn(const SinkhornParams& p, const Executor& ex) {
  const int64_t nn = int64_t(p.n) * p.n;
  parallel_for(ex, p.batch, 4096, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      float c[kMaxHcMult * kMaxHcMult];
      for (int64_t e = 0; e < nn; ++e) c[e] = p.logits[b * nn + e];
      sinkhorn_inplace(c, p.n, p.repeat, p.eps);
      for (int64_t e = 0; e < nn; ++e) p.out[b * nn + e] = c[e];
    }
  });
}

}  // namespace dsv4::cpu
