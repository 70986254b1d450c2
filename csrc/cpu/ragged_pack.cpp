// ragged_pack: a prefix copy of each row into CSR form. The scan is serial (4 bytes a row); the
// copies run in parallel. Nothing past indptr[R] or indptr_out[R] is written.
#include "../common/topk_math.h"
#include "cpu_ops.h"

namespace dsv4::cpu {

void ragged_pack(const RaggedPackParams& p, const Executor& ex) {
  int64_t offset = 0;
  p.indptr_out[0] = 0;
  for (int64_t r = 0; r < p.rows; ++r) {
    offset += ragged_length(p, r);
    p.indptr_out[r + 1] = int32_t(offset);
  }
  parallel_for(ex, p.rows, 64, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int32_t* src = p.dense + r * p.dense_row_stride;
      int32_t* dst = p.indices_out + p.indptr_out[r];
      const int64_t len = ragged_length(p, r);
      for (int64_t j = 0; j < len; ++j) dst[j] = ragged_map(src[j], p.num_kv, p.fill);
    }
  });
}

}  // namespace dsv4::cpu
