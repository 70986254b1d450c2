// How fast can CTAs pull a weight slice out of L2, in one 16-CTA cluster (one GPC) against the same
// CTAs spread over the chip? The mHC decode kernel's projection reads fn (24 x 16384 fp32, 1.5 MB) as
// a 16-CTA cluster, 98 KB a CTA; benchmarks/NOTES.md (session 2026-11-26 (10)) reads its ~2 us as one
// GPC's share of L2 bandwidth. Each CTA reads `bytes` of an L2-resident buffer with 16-byte loads,
// all of a thread's loads in flight, and the kernel reports the span from the first CTA's start to
// the last CTA's end (globaltimer).
// Build and run on the GPU machine (not part of the package or the tests):
//   nvcc -gencode arch=compute_90a,code=sm_90a -O3 -o gpc_ingest benchmarks/gpc_ingest.cu && ./gpc_ingest
#include <cooperative_groups.h>
#include <cstdint>
#include <cstdio>

__device__ __forceinline__ uint64_t now() {
  uint64_t t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

template <int kPerThread>
__global__ void __launch_bounds__(384) ingest(const float4* src, int64_t slice, unsigned long long* span, float* sink) {
  const uint64_t t0 = now();
  const float4* p = src + blockIdx.x * slice;
  float4 v[kPerThread];
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int64_t i = threadIdx.x + int64_t(k) * blockDim.x;
    v[k] = i < slice ? __ldg(p + i) : make_float4(0, 0, 0, 0);
  }
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) acc += v[k].x + v[k].y + v[k].z + v[k].w;
  __syncthreads();
  const uint64_t t1 = now();
  if (acc == 12345.0f) sink[0] = acc;  // keeps the loads
  if (threadIdx.x == 0) {
    atomicMin(&span[0], (unsigned long long)t0);
    atomicMax(&span[1], (unsigned long long)t1);
  }
}

template <int kPerThread>
double run(const float4* buf, int ctas, int cluster, int64_t slice, unsigned long long* span, float* sink) {
  double best = 1e30, sum = 0;
  const int reps = 50;
  for (int r = 0; r < reps; ++r) {
    unsigned long long init[2] = {~0ull, 0ull};
    cudaMemcpy(span, init, 16, cudaMemcpyHostToDevice);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(ctas);
    cfg.blockDim = dim3(384);
    cudaLaunchAttribute a[1];
    a[0].id = cudaLaunchAttributeClusterDimension;
    a[0].val.clusterDim.x = cluster;
    a[0].val.clusterDim.y = 1;
    a[0].val.clusterDim.z = 1;
    cfg.attrs = a;
    cfg.numAttrs = cluster > 1 ? 1 : 0;
    cudaLaunchKernelEx(&cfg, ingest<kPerThread>, buf, slice, span, sink);
    unsigned long long h[2];
    cudaMemcpy(h, span, 16, cudaMemcpyDeviceToHost);
    const double us = (h[1] - h[0]) * 1e-3;
    if (r >= 5) { best = us < best ? us : best; sum += us; }
  }
  return sum / (reps - 5);
}

int main() {
  const int64_t total = 24 * 16384 * 4;  // fn of mhc_pre at D = 4096: 1.5 MB
  float4* buf = nullptr;
  unsigned long long* span = nullptr;
  float* sink = nullptr;
  cudaMalloc(&buf, total);
  cudaMalloc(&span, 16);
  cudaMalloc(&sink, 4);
  cudaMemset(buf, 0, total);
  cudaFuncSetAttribute(ingest<16>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  cudaFuncSetAttribute(ingest<2>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  // 16 CTAs x 96 KB (384 threads x 16 loads of 16 B), as the decode cluster; 128 CTAs x 12 KB.
  const int64_t s16 = total / 16 / 16, s128 = total / 128 / 16;
  printf("16 CTAs x %lld KB, one cluster of 16 : %.2f us (mean span)\n", (long long)(s16 * 16 / 1024),
         run<16>(buf, 16, 16, s16, span, sink));
  printf("16 CTAs x %lld KB, no cluster        : %.2f us\n", (long long)(s16 * 16 / 1024), run<16>(buf, 16, 1, s16, span, sink));
  printf("16 CTAs x %lld KB, clusters of 2     : %.2f us\n", (long long)(s16 * 16 / 1024), run<16>(buf, 16, 2, s16, span, sink));
  printf("128 CTAs x %lld KB, no cluster       : %.2f us\n", (long long)(s128 * 16 / 1024), run<2>(buf, 128, 1, s128, span, sink));
  printf("128 CTAs x %lld KB, clusters of 8    : %.2f us\n", (long long)(s128 * 16 / 1024), run<2>(buf, 128, 8, s128, span, sink));
  printf("128 CTAs x %lld KB, clusters of 16   : %.2f us\n", (long long)(s128 * 16 / 1024), run<2>(buf, 128, 16, s128, span, sink));
  const cudaError_t e = cudaGetLastError();
  printf("status: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
