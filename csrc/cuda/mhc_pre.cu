#include "cuda_ops.h"
#include "mhc_pipeline_kernel.cuh"
#include "mhc_pre_kernel.cuh"

namespace dsv4::cuda {

int mhc_pre(const MhcPreParams& p, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  MhcFusedParams fp{};
  fp.pre = p;
  const int err = pipeline_mhc::launch<pipeline_mhc::Mode::kPre>(fp, s);
  return err >= 0 ? err : launch_mhc_pre<false>(p, s);
}

}  // namespace dsv4::cuda
