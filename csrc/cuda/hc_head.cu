#include "cuda_ops.h"
#include "mhc_pipeline_kernel.cuh"
#include "mhc_pre_kernel.cuh"
#include "mhc_tma_kernel.cuh"

namespace dsv4::cuda {

namespace pipeline_mhc {

int launch_head(const MhcPreParams& p, cudaStream_t stream) {
  MhcFusedParams fp{};
  fp.pre = p;
  // Long batches at D = 4096 / 7168 on the TMA kernel (same bits per token), else the pipeline kernel.
  const int tma = tma_mhc::launch<Mode::kHead>(p, stream);
  return tma >= 0 ? tma : launch<Mode::kHead>(fp, stream);
}

}  // namespace pipeline_mhc

int hc_head(const MhcPreParams& p, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  const int err = pipeline_mhc::launch_head(p, s);
  return err >= 0 ? err : launch_mhc_pre<true>(p, s);
}

}  // namespace dsv4::cuda
