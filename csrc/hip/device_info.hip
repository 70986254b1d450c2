// Host-side device queries for the HIP dispatcher: the CDNA generation from gcnArchName, cached
// per device, and error strings.
#include <hip/hip_runtime.h>

#include <atomic>
#include <cstring>

#include "hip_ops.h"

namespace dsv4::hip {

namespace {

// "gfx942:sramecc+:xnack-" -> 942; anything but gfx942 / gfx950 -> 0.
int arch_from_name(const char* name) {
  if (std::strncmp(name, "gfx942", 6) == 0 && (name[6] == '\0' || name[6] == ':')) return 942;
  if (std::strncmp(name, "gfx950", 6) == 0 && (name[6] == '\0' || name[6] == ':')) return 950;
  return 0;
}

}  // namespace

int device_arch(int device) {
  constexpr int kMaxDevices = 64;
  constexpr int kOther = -1;  // cached "neither gfx942 nor gfx950"; 0 is "not asked yet"
  static std::atomic<int> cache[kMaxDevices] = {};
  if (device < 0 || device >= kMaxDevices) return 0;
  int v = cache[device].load(std::memory_order_relaxed);
  if (v == 0) {
    hipDeviceProp_t prop;
    if (hipGetDeviceProperties(&prop, device) != hipSuccess) return 0;  // not cached: may recover
    v = arch_from_name(prop.gcnArchName);
    if (v == 0) v = kOther;
    cache[device].store(v, std::memory_order_relaxed);
  }
  return v > 0 ? v : 0;
}

const char* error_string(int err) { return hipGetErrorString(hipError_t(err)); }

}  // namespace dsv4::hip
