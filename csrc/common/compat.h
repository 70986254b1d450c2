// One small header that hides the host / CUDA / HIP differences the shared math needs.
#pragma once

#if defined(__HIPCC__)
// HIP sources may include this before <hip/hip_runtime.h>, which defines __forceinline__ and a
// device memcpy; with clang's own attributes and __builtin_bit_cast they need neither.
#define DSV4_HD __host__ __device__ inline __attribute__((always_inline))
#elif defined(__CUDACC__)
#define DSV4_HD __host__ __device__ __forceinline__
#else
#define DSV4_HD inline
#endif

#include <cstdint>
#include <cstring>

// `#pragma unroll` for device compilers (and clang), nothing for the host compilers that warn on it.
#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__clang__)
#define DSV4_UNROLL _Pragma("unroll")
#else
#define DSV4_UNROLL
#endif

namespace dsv4 {

// Bit casts for host, CUDA and HIP code: memcpy where a device memcpy exists, clang's builtin
// in HIP.
#if defined(__HIPCC__)
DSV4_HD float bits_to_float(uint32_t u) { return __builtin_bit_cast(float, u); }
DSV4_HD uint32_t float_to_bits(float f) { return __builtin_bit_cast(uint32_t, f); }
#else
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
#endif

}  // namespace dsv4
