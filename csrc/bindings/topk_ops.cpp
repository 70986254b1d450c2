// Entry points of top_k_per_row_prefill / _decode (../shared/spec/topk.md §2-4).
#include <limits>

#include "dispatch.h"
#include "ops.h"

namespace dsv4::binding {

namespace {

// logits [R, W] fp32 (any strides) and indices [R, k] int32 (unit column stride, any row stride >= k).
TopKParams check_common(const ArgCheck& c, const Tensor& logits, const Tensor& indices, int64_t top_k,
                        bool deterministic) {
  c.dtype(logits, "logits", ScalarType::Float);
  c.dim(logits, "logits", 2);
  const int64_t rows = logits.size(0), width = logits.size(1);
  c.require(width <= std::numeric_limits<int32_t>::max(), "logits.shape[1] must be < 2^31, got ", width);
  c.same_device(indices, "indices", logits, "logits");
  c.dtype(indices, "indices", ScalarType::Int);
  c.dim(indices, "indices", 2);
  c.require(top_k >= 1 && top_k <= std::numeric_limits<int32_t>::max(), "top_k must be >= 1, got ", top_k);
  c.require(indices.size(0) == rows && indices.size(1) == top_k, "indices must have shape [", rows, ", ",
            top_k, "] (logits rows, top_k), got ", shape_string(indices));
  c.require(indices.stride(1) == 1 || top_k == 1, "indices must have stride(1) == 1, got ", indices.stride(1));
  c.require(indices.stride(0) >= top_k || rows <= 1, "indices must have stride(0) >= top_k (", top_k,
            "), got ", indices.stride(0));
  TopKParams p{};
  p.logits = static_cast<const float*>(logits.const_data_ptr());
  p.rows = rows;
  p.width = width;
  p.logits_row_stride = logits.stride(0);
  p.logits_col_stride = logits.stride(1);
  p.indices = static_cast<int32_t*>(indices.mutable_data_ptr());
  p.indices_row_stride = indices.stride(0);
  p.k = int(top_k);
  p.deterministic = deterministic;
  return p;
}

void check_lengths(const ArgCheck& c, const Tensor& t, const char* name, const Tensor& logits) {
  c.same_device(t, name, logits, "logits");
  c.dtype(t, name, ScalarType::Int);
  c.contiguous(t, name);
}

}  // namespace

void top_k_per_row_prefill(Tensor logits, Tensor row_starts, Tensor row_ends, Tensor indices, int64_t top_k,
                           bool deterministic) {
  const ArgCheck c("top_k_per_row_prefill");
  TopKParams p = check_common(c, logits, indices, top_k, deterministic);
  check_lengths(c, row_starts, "row_starts", logits);
  c.shape(row_starts, "row_starts", {p.rows});
  check_lengths(c, row_ends, "row_ends", logits);
  c.shape(row_ends, "row_ends", {p.rows});
  p.row_starts = static_cast<const int32_t*>(row_starts.const_data_ptr());
  p.row_ends = static_cast<const int32_t*>(row_ends.const_data_ptr());
  if (p.rows > 0) launch_top_k_per_row(c, logits, p);
}

void top_k_per_row_decode(Tensor logits, int64_t next_n, Tensor seq_lens, Tensor indices, int64_t top_k,
                          bool deterministic) {
  const ArgCheck c("top_k_per_row_decode");
  TopKParams p = check_common(c, logits, indices, top_k, deterministic);
  c.require(next_n >= 1 && next_n <= std::numeric_limits<int32_t>::max(), "next_n must be >= 1, got ",
            next_n);
  c.require(p.rows % next_n == 0, "logits.shape[0] (", p.rows, ") must be a multiple of next_n (", next_n,
            ")");
  const int64_t batch = p.rows / next_n;
  check_lengths(c, seq_lens, "seq_lens", logits);
  c.require((seq_lens.dim() == 1 && seq_lens.size(0) == batch) ||
                (seq_lens.dim() == 2 && seq_lens.size(0) == batch && seq_lens.size(1) == next_n),
            "seq_lens must have shape [", batch, "] or [", batch, ", ", next_n,
            "] (batch = logits rows / next_n), got ", shape_string(seq_lens));
  p.row_ends = static_cast<const int32_t*>(seq_lens.const_data_ptr());
  p.next_n = int(next_n);
  p.seq_lens_2d = seq_lens.dim() == 2;
  if (p.rows > 0) launch_top_k_per_row(c, logits, p);
}

}  // namespace dsv4::binding
