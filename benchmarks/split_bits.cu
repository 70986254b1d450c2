// Checks fn's bf16 split (pipeline_mhc::split3_bf16x2, csrc/cuda/mhc_pipeline_kernel.cuh: hi, mid, lo by
// cvt.rn.bf16x2, no NaN fix-ups) against the scalar chain it stands for (to_bf16 of f, of f - hi, of
// f - hi - mid; csrc/common/bf16.h) on every fp32 bit pattern, in both halves of a pair. Expected: 0
// differing parts where neither input is a NaN; where one is, the parts may differ in the NaN's payload
// (to_bf16 keeps it, the cvt gives the canonical NaN), which no output carries (the mma's NaN result is
// canonical; checked by the session's same-bits runs with NaNs in fn, benchmarks/NOTES.md).
// Build and run on the GPU machine (not part of the package or the tests):
//   nvcc -gencode arch=compute_90a,code=sm_90a -O3 -I csrc -o split_bits benchmarks/split_bits.cu && ./split_bits
#include <cstdint>
#include <cstdio>

#include "cuda/mhc_pipeline_kernel.cuh"

namespace pm = dsv4::cuda::pipeline_mhc;

__device__ void reference(float f, uint16_t (&parts)[3]) {
  const dsv4::bf16 hi = dsv4::to_bf16(f);
  const float r1 = f - dsv4::to_float(hi);
  const dsv4::bf16 mid = dsv4::to_bf16(r1);
  const dsv4::bf16 lo = dsv4::to_bf16(r1 - dsv4::to_float(mid));
  parts[0] = hi.bits, parts[1] = mid.bits, parts[2] = lo.bits;
}

__global__ void compare(uint32_t base, unsigned long long* differ) {
  const uint32_t bits = base + blockIdx.x * blockDim.x + threadIdx.x;
  const float a = __uint_as_float(bits), b = __uint_as_float(~bits);  // every pattern in each half
  uint16_t ra[3], rb[3];
  reference(a, ra);
  reference(b, rb);
  uint32_t w[3];
  pm::split3_bf16x2(a, b, w);
  const bool nan_in = a != a || b != b;
  for (int p = 0; p < 3; ++p)
    if (w[p] != (uint32_t(ra[p]) | (uint32_t(rb[p]) << 16))) atomicAdd(&differ[nan_in ? 1 : 0], 1ull);
}

int main() {
  unsigned long long* d = nullptr;
  if (cudaMalloc(&d, 16) != cudaSuccess || cudaMemset(d, 0, 16) != cudaSuccess) return 1;
  for (uint64_t base = 0; base < (uint64_t(1) << 32); base += uint64_t(1) << 28)
    compare<<<(1 << 28) / 256, 256>>>(uint32_t(base), d);
  unsigned long long h[2] = {};
  if (cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  printf("split3_bf16x2 vs the scalar to_bf16 chain over all 2^32 floats (both halves): %llu parts differ "
         "where no input is a NaN, %llu (payloads) where one is\n", h[0], h[1]);
  return h[0] == 0 ? 0 : 1;
}
