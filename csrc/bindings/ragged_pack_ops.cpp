// Entry point of ragged_pack (../shared/spec/topk.md §6).
#include <limits>

#include "dispatch.h"
#include "ops.h"

namespace dsv4::binding {

void ragged_pack(Tensor dense, Tensor lengths, Tensor indices_out, Tensor indptr_out, int64_t num_kv,
                 int64_t fill) {
  const ArgCheck c("ragged_pack");
  c.dtype(dense, "dense", ScalarType::Int);
  c.dim(dense, "dense", 2);
  const int64_t rows = dense.size(0), width = dense.size(1);
  c.require(dense.stride(1) == 1 || width <= 1, "dense must have stride(1) == 1, got ", dense.stride(1));
  c.require(dense.stride(0) >= width || rows <= 1, "dense must have stride(0) >= its width (", width,
            "), got ", dense.stride(0));
  c.require(rows * width < (int64_t(1) << 31), "dense must have fewer than 2^31 elements (indptr is int32), got ",
            shape_string(dense));
  c.same_device(lengths, "lengths", dense, "dense");
  c.dtype(lengths, "lengths", ScalarType::Int);
  c.shape(lengths, "lengths", {rows});
  c.contiguous(lengths, "lengths");
  for (const auto& [t, name, need] : {std::tuple{&indices_out, "indices_out", rows * width},
                                      std::tuple{&indptr_out, "indptr_out", rows + 1}}) {
    c.same_device(*t, name, dense, "dense");
    c.dtype(*t, name, ScalarType::Int);
    c.dim(*t, name, 1);
    c.contiguous(*t, name);
    c.require(t->numel() >= need, name, " must hold at least ", need, " elements, got ", t->numel());
  }
  c.require(fill >= std::numeric_limits<int32_t>::min() && fill <= std::numeric_limits<int32_t>::max(),
            "fill must fit in int32, got ", fill);
  RaggedPackParams p{static_cast<const int32_t*>(dense.const_data_ptr()),
                     dense.stride(0),
                     static_cast<const int32_t*>(lengths.const_data_ptr()),
                     static_cast<int32_t*>(indices_out.mutable_data_ptr()),
                     static_cast<int32_t*>(indptr_out.mutable_data_ptr()),
                     rows,
                     width,
                     num_kv,
                     int32_t(fill)};
  launch_ragged_pack(c, dense, p);
}

}  // namespace dsv4::binding
