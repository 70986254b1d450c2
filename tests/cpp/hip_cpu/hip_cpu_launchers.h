// The HIP launchers of both archs as the HIP-CPU gtests call them: one table per arch, and a wait
// for the runtime (launches are asynchronous, as on a GPU). Torch- and HIP-header-free.
#pragma once

#include <ostream>

#include "hip/hip_ops.h"

namespace dsv4::hip_cpu {

int synchronize();  // hipDeviceSynchronize

struct Launchers {
  const char* arch;
  int (*mhc_pre)(const MhcPreParams&, void*);
  int (*mhc_pre_delayed)(const MhcPreDelayedParams&, void*);
  int (*mhc_post)(const MhcPostParams&, void*);
  int (*mhc_fused_post_pre)(const MhcFusedParams&, void*);
  int (*mhc_fused_post_pre_delayed)(const MhcFusedDelayedParams&, void*);
  int (*hc_head)(const MhcPreParams&, void*);
  int (*mhc_post_hc_head)(const MhcPostHeadParams&, void*);
  int (*sinkhorn)(const SinkhornParams&, void*);
  int (*top_k_per_row)(const TopKParams&, void*);
  int (*ragged_pack)(const RaggedPackParams&, void*);
};

#define DSV4_ARCH_LAUNCHERS(ns)                                                                  \
  Launchers {                                                                                   \
    #ns, &hip::ns::mhc_pre, &hip::ns::mhc_pre_delayed, &hip::ns::mhc_post, &hip::ns::mhc_fused_post_pre, \
        &hip::ns::mhc_fused_post_pre_delayed, &hip::ns::hc_head, &hip::ns::mhc_post_hc_head,         \
        &hip::ns::sinkhorn, &hip::ns::top_k_per_row, &hip::ns::ragged_pack                       \
  }
inline const Launchers kArchs[] = {DSV4_ARCH_LAUNCHERS(gfx942), DSV4_ARCH_LAUNCHERS(gfx950)};
#undef DSV4_ARCH_LAUNCHERS

inline std::ostream& operator<<(std::ostream& os, const Launchers& l) { return os << l.arch; }

}  // namespace dsv4::hip_cpu
