// mhc_post_hc_head (spec §4.6): the pipelined fast path for n = 4 when the new streams are stored
// (streams_out, the model's MTP stash: the collapse re-reads them from L2); otherwise the general
// tile kernel (mhc_post_hc_head_kernel.cuh) for any n and D.
#include "cuda_ops.h"
#include "mhc_pipeline_kernel.cuh"
#include "mhc_post_hc_head_kernel.cuh"

namespace dsv4::cuda {

int mhc_post_hc_head(const MhcPostHeadParams& p, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  const int fast = pipeline_mhc::launch<pipeline_mhc::Mode::kFusedHead>(p, s);
  return fast >= 0 ? fast : post_head::launch_general(p, s);
}

}  // namespace dsv4::cuda
