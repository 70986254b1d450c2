// DeepSeek-V4.1's seam in one kernel (mhc_pre_kernel.h, kFusedDelayed): the post half stores the bf16
// residual_out, the delayed pre projects those stored values and collapses them with the carried
// pre_mix (stream 0 without one), storing the new pre weights; fused == mhc_post then mhc_pre_delayed
// up to reduction order, in one launch that reads x and the residual from HBM once.
#include "mhc_pre_kernel.h"  // first: it brings in the HIP runtime headers the shared ones assume

#include "hip_ops.h"

namespace dsv4::hip {
namespace {

template <class Arch>
int launch(const MhcFusedDelayedParams& p, void* stream) {
  return launch_mhc_pre<Arch, PreMode::kFusedDelayed>(MhcFusedParams{p.post, p.pre.pre},
                                                      static_cast<hipStream_t>(stream),
                                                      DelayedArgs{nullptr, p.pre.pre_mix, p.pre.new_pre});
}

}  // namespace

int gfx942::mhc_fused_post_pre_delayed(const MhcFusedDelayedParams& p, void* stream) {
  return launch<Gfx942>(p, stream);
}
int gfx950::mhc_fused_post_pre_delayed(const MhcFusedDelayedParams& p, void* stream) {
  return launch<Gfx950>(p, stream);
}

}  // namespace dsv4::hip
