#include "mhc_post_kernel.h"  // first: it brings in the HIP runtime headers the shared ones assume

#include "hip_ops.h"

namespace dsv4::hip {

int gfx942::mhc_post(const MhcPostParams& p, void* stream) {
  return launch_mhc_post<Gfx942>(p, static_cast<hipStream_t>(stream));
}
int gfx950::mhc_post(const MhcPostParams& p, void* stream) {
  return launch_mhc_post<Gfx950>(p, static_cast<hipStream_t>(stream));
}

}  // namespace dsv4::hip
