#include <cuda_runtime.h>

#include <atomic>

#include "cuda_ops.h"

namespace dsv4::cuda {

int device_sm_version(int device) {
  constexpr int kMaxDevices = 64;
  static std::atomic<int> cache[kMaxDevices] = {};
  if (device < 0 || device >= kMaxDevices) return 0;
  int v = cache[device].load(std::memory_order_relaxed);
  if (v == 0) {
    int major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess)
      return 0;
    v = major * 10 + minor;
    cache[device].store(v, std::memory_order_relaxed);
  }
  return v;
}

const char* error_string(int err) { return cudaGetErrorString(cudaError_t(err)); }

}  // namespace dsv4::cuda
