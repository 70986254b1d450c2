#include "mhc_pre_kernel.h"  // first: it brings in the HIP runtime headers the shared ones assume

#include "hip_ops.h"

namespace dsv4::hip {
namespace {

template <class Arch>
int launch(const MhcPreParams& p, void* stream) {
  MhcFusedParams fp{};
  fp.pre = p;
  return launch_mhc_pre<Arch, PreMode::kHead>(fp, static_cast<hipStream_t>(stream));
}

}  // namespace

int gfx942::hc_head(const MhcPreParams& p, void* stream) { return launch<Gfx942>(p, stream); }
int gfx950::hc_head(const MhcPreParams& p, void* stream) { return launch<Gfx950>(p, stream); }

}  // namespace dsv4::hip
