// HIP launchers for CDNA3 (gfx942, MI300) and CDNA4 (gfx950, MI355). The same torch-free params as
// the CPU and CUDA launchers; each takes a hipStream_t passed as void*, launches on it without
// synchronising or allocating, and returns a hipError_t (0 = ok). One namespace per architecture,
// so the dispatcher can pick the variant from the device's architecture name at run time.
#pragma once

#include "../common/op_params.h"

#define DSV4_HIP_LAUNCHERS                                          \
  int mhc_pre(const MhcPreParams& p, void* stream);                 \
  int mhc_pre_delayed(const MhcPreDelayedParams& p, void* stream);  \
  int mhc_post(const MhcPostParams& p, void* stream);               \
  int mhc_fused_post_pre(const MhcFusedParams& p, void* stream);    \
  int mhc_fused_post_pre_delayed(const MhcFusedDelayedParams& p, void* stream); \
  int hc_head(const MhcPreParams& p, void* stream);                 \
  int mhc_post_hc_head(const MhcPostHeadParams& p, void* stream);  \
  int sinkhorn(const SinkhornParams& p, void* stream);              \
  int top_k_per_row(const TopKParams& p, void* stream);             \
  int ragged_pack(const RaggedPackParams& p, void* stream);

namespace dsv4::hip {

namespace gfx942 {
DSV4_HIP_LAUNCHERS
}  // namespace gfx942

namespace gfx950 {
DSV4_HIP_LAUNCHERS
}  // namespace gfx950

// The CDNA generation of a device from its architecture name (gcnArchName "gfx942:sramecc+:xnack-"
// -> 942, "gfx950..." -> 950); 0 for anything else or on error. Cached per device.
int device_arch(int device);
const char* error_string(int err);

}  // namespace dsv4::hip

#undef DSV4_HIP_LAUNCHERS
