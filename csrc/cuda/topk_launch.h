// The top-k launchers behind cuda::top_k_per_row (topk.cu), one per kernel design.
#pragma once

#include <cuda_runtime.h>

#include "../common/op_params.h"

namespace dsv4::cuda {

// Rows of at most kWarpRowWidth columns take one warp each, rows of at most kGroupRowWidth two or
// four warps (topk_warp_rows.cu).
constexpr int kWarpRowWidth = 2048;
constexpr int kGroupRowWidth = 4 * kWarpRowWidth;
int top_k_warp_rows(const TopKParams& p, cudaStream_t stream);

}  // namespace dsv4::cuda
