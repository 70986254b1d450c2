// Checks fn's bf16 split (pipeline_mhc::split3_bf16x2, csrc/cuda/mhc_pipeline_kernel.cuh: hi, mid, lo by
// cvt.rn.bf16x2 with pack_bf16x2's NaN fix-ups) against the scalar chain it replaced (to_bf16 of f, of
// f - hi, of f - hi - mid; csrc/common/bf16.h) on every fp32 bit pattern, in both halves of a pair; and a
// candidate that keeps the fix-up for the hi part only (its inputs are fn itself; the remainders are FADD
// results, whose NaNs are the canonical one if the hardware makes them so). Expected: 0 differences for
// both; a nonzero count for the candidate means the remainders' NaNs are not canonical.
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

__device__ void hi_only(float a, float b, uint32_t (&w)[3]) {
#pragma unroll
  for (int p = 0; p < 3; ++p) {
    if (p == 0) {
      w[p] = dsv4::cuda::pack_bf16x2(a, b);
    } else {
      asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(w[p]) : "f"(b), "f"(a));
    }
    a -= __uint_as_float(w[p] << 16);
    b -= __uint_as_float(w[p] & 0xffff0000u);
  }
}

__global__ void compare(uint32_t base, unsigned long long* differ) {
  const uint32_t bits = base + blockIdx.x * blockDim.x + threadIdx.x;
  const float a = __uint_as_float(bits), b = __uint_as_float(~bits);  // every pattern in each half
  uint16_t ra[3], rb[3];
  reference(a, ra);
  reference(b, rb);
  uint32_t w[3], c[3];
  pm::split3_bf16x2(a, b, w);
  hi_only(a, b, c);
  for (int p = 0; p < 3; ++p) {
    const uint32_t want = uint32_t(ra[p]) | (uint32_t(rb[p]) << 16);
    if (w[p] != want) atomicAdd(&differ[0], 1ull);
    if (c[p] != want) atomicAdd(&differ[1], 1ull);
  }
}

int main() {
  unsigned long long* d = nullptr;
  if (cudaMalloc(&d, 16) != cudaSuccess || cudaMemset(d, 0, 16) != cudaSuccess) return 1;
  for (uint64_t base = 0; base < (uint64_t(1) << 32); base += uint64_t(1) << 28)
    compare<<<(1 << 28) / 256, 256>>>(uint32_t(base), d);
  unsigned long long h[2] = {};
  if (cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  printf("split3_bf16x2 vs the scalar to_bf16 chain over all 2^32 floats (both halves): %llu parts differ; "
         "the hi-only fix-up candidate: %llu\n", h[0], h[1]);
  return h[0] == 0 ? 0 : 1;
}
