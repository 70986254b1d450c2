#include "cuda_common.cuh"
#include "cuda_ops.h"

namespace dsv4::cuda {

int device_sm_version(int device) {
  static PerDevice cache;
  return cache.get(device, [](int d) {
    int major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d) != cudaSuccess)
      return 0;
    return major * 10 + minor;
  });
}

int device_sm_count(int device) {
  static PerDevice cache;
  return cache.get(device, [](int d) {
    int sms = 0;
    return cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d) == cudaSuccess ? sms : 0;
  });
}

const char* error_string(int err) { return cudaGetErrorString(cudaError_t(err)); }

}  // namespace dsv4::cuda
