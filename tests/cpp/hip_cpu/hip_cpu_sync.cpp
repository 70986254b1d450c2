// Waits for the HIP CPU runtime's streams, for tests that do not include its headers.
#include "hip_cpu_launchers.h"

namespace dsv4::hip_cpu {

int synchronize() { return int(hipDeviceSynchronize()); }

}  // namespace dsv4::hip_cpu
