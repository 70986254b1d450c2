#include "mhc_pre_kernel.h"  // first: it brings in the HIP runtime headers the shared ones assume

#include "hip_ops.h"

namespace dsv4::hip {
namespace {

template <class Arch>
int launch(const MhcPreDelayedParams& p, void* stream) {
  MhcFusedParams fp{};
  fp.pre = p.pre;
  return launch_mhc_pre<Arch, PreMode::kDelayed>(fp, static_cast<hipStream_t>(stream),
                                                 DelayedArgs{p.x, p.pre_mix, p.new_pre});
}

}  // namespace

int gfx942::mhc_pre_delayed(const MhcPreDelayedParams& p, void* stream) { return launch<Gfx942>(p, stream); }
int gfx950::mhc_pre_delayed(const MhcPreDelayedParams& p, void* stream) { return launch<Gfx950>(p, stream); }

}  // namespace dsv4::hip
