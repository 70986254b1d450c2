// mhc_post_hc_head (spec §4.6) in one kernel: each new stream is computed in registers from x and the
// residual (stored to streams_out when given), projected with the head's n rows, then recomputed for
// the collapse, and the final norm applied to the rounded head output (mhc_pre_kernel.h, kPostHead).
#include "mhc_pre_kernel.h"  // first: it brings in the HIP runtime headers the shared ones assume

#include "hip_ops.h"

namespace dsv4::hip {

int gfx942::mhc_post_hc_head(const MhcPostHeadParams& p, void* stream) {
  return launch_mhc_pre<Gfx942, PreMode::kPostHead>(p, static_cast<hipStream_t>(stream));
}
int gfx950::mhc_post_hc_head(const MhcPostHeadParams& p, void* stream) {
  return launch_mhc_pre<Gfx950, PreMode::kPostHead>(p, static_cast<hipStream_t>(stream));
}

}  // namespace dsv4::hip
