// Torch-free bfloat16 storage type and exact conversions, shared by the CPU, CUDA and HIP code.
// Explicit conversions only: the CUDA path must compile with __CUDA_NO_BFLOAT16_CONVERSIONS__ too.
#pragma once

#include "compat.h"

namespace dsv4 {

struct bf16 {
  uint16_t bits;
};

// Exact widening: a bf16 is the top half of an fp32.
DSV4_HD float to_float(bf16 v) { return bits_to_float(uint32_t(v.bits) << 16); }

// fp32 -> bf16, round to nearest even; NaN stays a quiet NaN with its sign. Written as a select,
// not an early return: AMD compilers keep the early return as a divergent branch per element.
DSV4_HD bf16 to_bf16(float f) {
  const uint32_t u = float_to_bits(f);
  const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  const uint32_t quiet_nan = (u >> 16) | 0x0040u;
  return bf16{uint16_t((u & 0x7fffffffu) > 0x7f800000u ? quiet_nan : rounded)};
}

}  // namespace dsv4
