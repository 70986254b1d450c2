#include "cuda_ops.h"
#include "mhc_pipeline_kernel.cuh"
#include "mhc_pre_kernel.cuh"
#include "mhc_tma_kernel.cuh"

namespace dsv4::cuda {

// n = 4 on the streams: prefill at D = 4096 / 7168 on the TMA kernel, the rest on the pipelined cluster
// kernel (the same bits per token; their owners store new_pre and hand the carried weights to the
// collapse); the broadcast entry (x, fn of width D) and other shapes: the general one.
int mhc_pre_delayed(const MhcPreDelayedParams& p, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  if (p.x == nullptr) {
    const pipeline_mhc::DelayedArgs da{p.pre_mix, p.new_pre};
    if (const int err = tma_mhc::launch<pipeline_mhc::Mode::kDelayed>(p.pre, s, da); err >= 0) return err;
    MhcFusedParams fp{};
    fp.pre = p.pre;
    const int err = pipeline_mhc::launch<pipeline_mhc::Mode::kDelayed>(fp, s, da);
    if (err >= 0) return err;
  }
  return launch_mhc_pre<false, true>(p, s);
}

}  // namespace dsv4::cuda
