// How many SMs can a clustered kernel with the TMA kernel's footprint hold at once, by cluster size? The mHC TMA
// kernel runs clusters of 16 CTAs (one CTA an SM: ~227 KB of shared memory, 384 or 512 threads), and 7 of them fit
// on the 132-SM H100 / H200, i.e. 112 SMs (benchmarks/NOTES.md, session 2026-11-28 (30): its SMs are active 72-76 %
// of the elapsed cycles). A layout with clusters of 8 (each CTA two ranks of D / 16, fn streamed from L2) would hold
// max_clusters(8) x 8 SMs; this asks the runtime (cudaOccupancyMaxActiveClusters) for sizes 1 .. 16 with the same
// footprint, and launches each to check that the count is what runs at once (the CTAs of one launch record their SM
// and whether they overlapped in time).
// Build and run on the GPU machine (not part of the package or the tests):
//   nvcc -gencode arch=compute_90a,code=sm_90a -O3 -o cluster_occupancy benchmarks/cluster_occupancy.cu && ./cluster_occupancy
#include <cooperative_groups.h>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

__device__ __forceinline__ uint64_t now() {
  uint64_t t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

// Each CTA records its SM and its start / end time; it holds its SM for ~50 us so that the CTAs that fit run together.
__global__ void hold(unsigned* sm_of, unsigned long long* t0, unsigned long long* t1) {
  extern __shared__ unsigned char smem[];
  cg::this_cluster().sync();
  const uint64_t start = now();
  if (threadIdx.x == 0) {
    unsigned sm;
    asm volatile("mov.u32 %0, %smid;" : "=r"(sm));
    sm_of[blockIdx.x] = sm;
    t0[blockIdx.x] = start;
  }
  while (now() - start < 50000) smem[threadIdx.x] = static_cast<unsigned char>(threadIdx.x);
  cg::this_cluster().sync();
  if (threadIdx.x == 0) t1[blockIdx.x] = now();
}

int main() {
  int dev = 0, sms = 0, smem_optin = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  const int smem = smem_optin - 1024;  // one CTA an SM, as the TMA kernel
  cudaFuncSetAttribute(hold, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaFuncSetAttribute(hold, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  std::printf("SMs %d, dynamic shared memory a CTA %d B\n", sms, smem);
  const int max_grid = 2 * sms;
  unsigned* sm_of;
  unsigned long long *t0, *t1;
  cudaMalloc(&sm_of, max_grid * sizeof(unsigned));
  cudaMalloc(&t0, max_grid * sizeof(unsigned long long));
  cudaMalloc(&t1, max_grid * sizeof(unsigned long long));
  for (int threads : {384, 512}) {
    for (int size : {1, 2, 4, 8, 12, 14, 16}) {
      cudaLaunchConfig_t cfg = {};
      cudaLaunchAttribute attr[1];
      attr[0].id = cudaLaunchAttributeClusterDimension;
      attr[0].val.clusterDim.x = size;
      attr[0].val.clusterDim.y = 1;
      attr[0].val.clusterDim.z = 1;
      cfg.attrs = attr;
      cfg.numAttrs = 1;
      cfg.blockDim = dim3(threads);
      cfg.dynamicSmemBytes = smem;
      cfg.gridDim = dim3(size);
      int clusters = 0;
      const cudaError_t q = cudaOccupancyMaxActiveClusters(&clusters, hold, &cfg);
      if (q != cudaSuccess) {
        std::printf("threads %d cluster %2d: query failed (%s)\n", threads, size, cudaGetErrorString(q));
        cudaGetLastError();
        continue;
      }
      if (clusters == 0) {
        std::printf("threads %d cluster %2d: 0 clusters fit\n", threads, size);
        continue;
      }
      // Launch exactly the clusters the runtime says fit; they must all have started before the first one ended.
      const int grid = clusters * size;
      cfg.gridDim = dim3(grid);
      const cudaError_t e = cudaLaunchKernelEx(&cfg, hold, sm_of, t0, t1);
      cudaDeviceSynchronize();
      if (e != cudaSuccess || cudaGetLastError() != cudaSuccess) {
        std::printf("threads %d cluster %2d: %d clusters, launch failed (%s)\n", threads, size, clusters,
                    cudaGetErrorString(e));
        continue;
      }
      std::vector<unsigned long long> a(grid), b(grid);
      std::vector<unsigned> s(grid);
      cudaMemcpy(a.data(), t0, grid * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
      cudaMemcpy(b.data(), t1, grid * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
      cudaMemcpy(s.data(), sm_of, grid * sizeof(unsigned), cudaMemcpyDeviceToHost);
      unsigned long long last_start = 0, first_end = ~0ull;
      std::vector<int> used(1024, 0);  // %smid need not be dense
      for (int i = 0; i < grid; ++i) {
        last_start = a[i] > last_start ? a[i] : last_start;
        first_end = b[i] < first_end ? b[i] : first_end;
        if (s[i] < used.size()) used[s[i]] = 1;
      }
      int distinct = 0;
      for (int u : used) distinct += u;
      std::printf("threads %d cluster %2d: %2d clusters = %3d CTAs on %3d distinct SMs, all at once: %s\n", threads, size,
                  clusters, grid, distinct, last_start < first_end ? "yes" : "no");
    }
  }
  cudaFree(sm_of);
  cudaFree(t0);
  cudaFree(t1);
  return 0;
}
