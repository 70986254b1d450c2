// One small header that hides the host / CUDA / HIP differences the shared math needs.
#pragma once

#if defined(__CUDACC__) || defined(__HIPCC__)
#define DSV4_HD __host__ __device__ __forceinline__
#else
#define DSV4_HD inline
#endif

#include <cstdint>
#include <cstring>

namespace dsv4 {

// Bit casts that compile in host, CUDA and HIP code alike (memcpy is the portable spelling).
DSV4_HD float bits_to_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
DSV4_HD uint32_t float_to_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

}  // namespace dsv4
