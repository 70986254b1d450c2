// One kernel: the post half stores the bf16 residual and the pre half projects those stored values
// (§3.7), so fused == post then pre up to reduction order, in one launch that reads x and the
// residual from HBM once (the new residual is read back from L2).
#include "mhc_pre_kernel.h"  // first: it brings in the HIP runtime headers the shared ones assume

#include "hip_ops.h"

namespace dsv4::hip {

int gfx942::mhc_fused_post_pre(const MhcFusedParams& p, void* stream) {
  return launch_mhc_pre<Gfx942, PreMode::kFused>(p, static_cast<hipStream_t>(stream));
}
int gfx950::mhc_fused_post_pre(const MhcFusedParams& p, void* stream) {
  return launch_mhc_pre<Gfx950, PreMode::kFused>(p, static_cast<hipStream_t>(stream));
}

}  // namespace dsv4::hip
