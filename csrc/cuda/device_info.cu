#include <cuda_runtime.h>

#include <atomic>

#include "cuda_ops.h"

namespace dsv4::cuda {

namespace {

constexpr int kMaxDevices = 64;

// A device attribute that does not change, queried once per device (0 on error, not cached).
template <class Query>
int cached(std::atomic<int> (&cache)[kMaxDevices], int device, Query query) {
  if (device < 0 || device >= kMaxDevices) return 0;
  int v = cache[device].load(std::memory_order_relaxed);
  if (v == 0) {
    v = query(device);
    if (v != 0) cache[device].store(v, std::memory_order_relaxed);
  }
  return v;
}

}  // namespace

int device_sm_version(int device) {
  static std::atomic<int> cache[kMaxDevices] = {};
  return cached(cache, device, [](int d) {
    int major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d) != cudaSuccess)
      return 0;
    return major * 10 + minor;
  });
}

int device_sm_count(int device) {
  static std::atomic<int> cache[kMaxDevices] = {};
  return cached(cache, device, [](int d) {
    int sms = 0;
    return cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d) == cudaSuccess ? sms : 0;
  });
}

const char* error_string(int err) { return cudaGetErrorString(cudaError_t(err)); }

}  // namespace dsv4::cuda
