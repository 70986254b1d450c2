// The top-k launchers behind cuda::top_k_per_row (topk.cu), one per kernel design.
#pragma once

#include <cuda_runtime.h>

#include "../common/op_params.h"

namespace dsv4::cuda {

// Rows of at most this many columns take one warp each (topk_warp_rows.cu).
constexpr int kWarpRowWidth = 2048;
int top_k_warp_rows(const TopKParams& p, cudaStream_t stream);

}  // namespace dsv4::cuda
