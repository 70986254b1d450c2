// top_k_per_row (prefill and decode share it; only the window differs): exact selection on the
// composite (value key, lowest index) so ties resolve to the lowest indices and the result is
// deterministic in both modes. Default order: descending value; deterministic: ascending index.
#include <algorithm>
#include <functional>
#include <vector>

#include "../common/topk_math.h"
#include "cpu_ops.h"

namespace dsv4::cpu {

void top_k_per_row(const TopKParams& p, const Executor& ex) {
  parallel_for(ex, p.rows, 1, [&](int64_t begin, int64_t end) {
    std::vector<uint64_t> keys;
    for (int64_t r = begin; r < end; ++r) {
      int64_t start = 0, len = 0;
      topk_row_window(p, r, &start, &len);
      int32_t* out = p.indices + r * p.indices_row_stride;
      if (len <= p.k) {
        for (int64_t i = 0; i < p.k; ++i) out[i] = i < len ? int32_t(i) : -1;
        continue;
      }
      const float* row = p.logits + r * p.logits_row_stride + start * p.logits_col_stride;
      keys.resize(size_t(len));
      for (int64_t i = 0; i < len; ++i) keys[i] = topk_rank_key(row[i * p.logits_col_stride], i);
      const auto kth = keys.begin() + (p.k - 1);
      std::nth_element(keys.begin(), kth, keys.end(), std::greater<uint64_t>());
      const auto index_of = [](uint64_t key) { return int32_t(0xffffffffu - uint32_t(key)); };
      if (p.deterministic) {
        for (int i = 0; i < p.k; ++i) out[i] = index_of(keys[i]);
        std::sort(out, out + p.k);
      } else {
        std::sort(keys.begin(), kth + 1, std::greater<uint64_t>());
        for (int i = 0; i < p.k; ++i) out[i] = index_of(keys[i]);
      }
    }
  });
}

}  // namespace dsv4::cpu
