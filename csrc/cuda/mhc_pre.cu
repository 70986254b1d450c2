#include "cuda_ops.h"
#include "mhc_pipeline_kernel.cuh"
#include "mhc_pre_kernel.cuh"
#include "mhc_tma_kernel.cuh"

namespace dsv4::cuda {

int mhc_pre(const MhcPreParams& p, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  // n = 4: prefill at D = 4096 / 7168 on the TMA kernel, the rest on the pipeline (the same bits per token).
  if (const int err = tma_mhc::launch<pipeline_mhc::Mode::kPre>(p, s); err >= 0) return err;
  MhcFusedParams fp{};
  fp.pre = p;
  const int err = pipeline_mhc::launch<pipeline_mhc::Mode::kPre>(fp, s);
  return err >= 0 ? err : launch_mhc_pre<false>(p, s);
}

}  // namespace dsv4::cuda
