// What one mma.sync costs on sm_90a, for the D = 7168 projection of the TMA kernel (tf32 m16n8k8 chains, fn split
// hi + lo per use) and the D = 4096 engines' bf16 m16n8k16 (benchmarks/NOTES.md, session 2026-11-28 (27)):
//  - rate: W warps an SM (one CTA a SM, 132 CTAs), each with 8 independent accumulator chains: cycles per mma on
//    the busiest SM sub-partition (warp w runs on sub-partition w % 4);
//  - latency: one warp an SM with C = 1, 2, 4, 8 chains: cycles per chain step (C = 1: the dependent latency).
// Measured on the H100 (gpu_logs/2026-11-28zz, calls 5 and 8): both shapes ~6.0-6.6 cycles an mma a sub-partition
// and 24 cycles dependent, so four chains fill the pipe and a stage's 8-deep chains are not what a warp waits for.
// Build and run on the GPU machine (not part of the package or the tests):
//   nvcc -gencode arch=compute_90a,code=sm_90a -O3 -o mma_sync_rate benchmarks/mma_sync_rate.cu && ./mma_sync_rate
#include <cstdint>
#include <cstdio>

namespace {

template <bool kTf32>
__device__ __forceinline__ void mma(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0,
                                    uint32_t b1) {
  if constexpr (kTf32)
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// kChains independent accumulator chains, iters steps each; thread 0 of each CTA reports its cycles.
template <bool kTf32, int kChains>
__global__ void __launch_bounds__(512, 1) chains(int iters, float* sink, unsigned long long* cycles) {
  float d[kChains][4] = {};
  const uint32_t a0 = threadIdx.x * 0x3f800001u, a1 = a0 + 7, a2 = a0 ^ 0x1234, a3 = a0 + 99, b0 = a0 * 3, b1 = a0 + 5;
  __syncthreads();
  const long long t0 = clock64();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) mma<kTf32>(d[c], a0, a1, a2, a3, b0, b1);
  }
  __syncthreads();
  const long long t1 = clock64();
  float s = 0.0f;
  for (int c = 0; c < kChains; ++c) s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
  sink[blockIdx.x * blockDim.x + threadIdx.x] = s;  // keeps the chains live
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
}

template <bool kTf32, int kChains>
unsigned long long run(int warps, int iters, float* sink, unsigned long long* cycles) {
  for (int rep = 0; rep < 2; ++rep) {  // the second launch is the one read
    chains<kTf32, kChains><<<132, warps * 32>>>(iters, sink, cycles);
    cudaDeviceSynchronize();
  }
  unsigned long long c = 0;
  cudaMemcpy(&c, cycles, sizeof(c), cudaMemcpyDeviceToHost);
  return c;
}

template <bool kTf32>
void report(float* sink, unsigned long long* cycles) {
  const char* name = kTf32 ? "tf32 m16n8k8 " : "bf16 m16n8k16";
  const int iters = 4000;
  for (int warps : {1, 2, 4, 8, 16}) {
    const unsigned long long c = run<kTf32, 8>(warps, iters, sink, cycles);
    const double per_subpartition = double(iters) * 8 * (warps < 4 ? 1 : warps / 4);
    printf("rate    %s warps/SM %2d: %.2f cycles per mma a sub-partition\n", name, warps, c / per_subpartition);
  }
  const unsigned long long c1 = run<kTf32, 1>(1, iters, sink, cycles), c2 = run<kTf32, 2>(1, iters, sink, cycles),
                           c4 = run<kTf32, 4>(1, iters, sink, cycles), c8 = run<kTf32, 8>(1, iters, sink, cycles);
  printf("latency %s one warp, chains 1 / 2 / 4 / 8: %.1f / %.1f / %.1f / %.1f cycles per chain step\n", name,
         double(c1) / iters, double(c2) / iters, double(c4) / iters, double(c8) / iters);
}

}  // namespace

int main() {
  float* sink = nullptr;
  unsigned long long* cycles = nullptr;
  cudaMalloc(&sink, 132 * 512 * sizeof(float));
  cudaMalloc(&cycles, 132 * sizeof(unsigned long long));
  report<true>(sink, cycles);
  report<false>(sink, cycles);
  return 0;
}
