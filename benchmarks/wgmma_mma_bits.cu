// Do wgmma m64n72k16 (A and B from shared memory, the mHC TMA kernel's layouts: A in 64-byte-swizzled
// rows of 32 k, B in K-major core matrices) and mma.sync m16n8k16 give the same fp32 bits for the same
// chain (8 k16 blocks accumulated in the same order, bf16 operands)? A design that computes a token's
// mixes with wgmma in prefill and mma.sync in decode is batch-invariant only if they do.
// Measured on the H100 (2026-11-26): 0 of 9,216,000 outputs differ (random bf16 over 2^-6..2^6).
// Build and run on the GPU machine (not part of the package or the tests):
//   nvcc -gencode arch=compute_90a,code=sm_90a -O2 -I csrc -o wgmma_mma_bits benchmarks/wgmma_mma_bits.cu && ./wgmma_mma_bits
#include <cuda_bf16.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda/mhc_pipeline_kernel.cuh"  // pipeline_mhc::mma_bf16, the mma.sync the kernels use

using dsv4::cuda::pipeline_mhc::mma_bf16;

constexpr int M = 64, N = 72, K = 128;  // 8 k16 blocks: 4 boxes (64 x 32 k, 64-byte swizzle) x 2 halves

__device__ __forceinline__ uint32_t smem_u32(const void* p) { return uint32_t(__cvta_generic_to_shared(p)); }

// D (+)= A B, m64n72k16, bf16 operands from shared memory (descriptors), fp32 accumulators.
__device__ __forceinline__ void wgmma_n72(float (&d)[36], uint64_t da, uint64_t db, int accumulate) {
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %38, 0;\n"
      " wgmma.mma_async.sync.aligned.m64n72k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, "
      "%12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, "
      "%34, %35}, %36, %37, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35])
      : "l"(da), "l"(db), "r"(accumulate));
}

// Byte offsets: A (row m, k < 32) in a 64-byte-swizzled box; B (column n, k < 16) in a k16 block of
// K-major core matrices (k halves 128 bytes apart, groups of 8 columns 256 bytes apart).
__device__ int a_offset(int m, int k) { return m * 64 + (((k / 8) ^ ((m >> 1) & 3)) * 16) + (k % 8) * 2; }
__device__ int b_offset(int n, int k) { return (n / 8) * 256 + (n % 8) * 16 + (k / 8) * 128 + (k % 8) * 2; }

// One 64 x 72 tile per block: A [M][K], B [K][N] bf16; the wgmma result to dw, the mma.sync one to dm.
__global__ void compare(const __nv_bfloat16* A, const __nv_bfloat16* B, float* dw, float* dm) {
  __shared__ __align__(1024) unsigned char sa[4 * M * 64];
  __shared__ __align__(1024) unsigned char sb[8 * N * 32];
  const __nv_bfloat16* a = A + size_t(blockIdx.x) * M * K;
  const __nv_bfloat16* b = B + size_t(blockIdx.x) * K * N;
  for (int e = threadIdx.x; e < M * K; e += 128)
    *reinterpret_cast<__nv_bfloat16*>(sa + (e % K / 32) * 4096 + a_offset(e / K, e % 32)) = a[e];
  for (int e = threadIdx.x; e < K * N; e += 128)  // block (i, h) = k / 16 holds k = 32 i + 16 h ..
    *reinterpret_cast<__nv_bfloat16*>(sb + (e / N / 16) * (N * 32) + b_offset(e % N, e / N % 16)) = b[e];
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // generic stores, read by wgmma
  __syncthreads();
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, c = lane % 4;
  const auto out = [&](float* o, int jj, int e) { return o + (16 * w + g + 8 * (e / 2)) * N + 8 * jj + 2 * c + e % 2; };
  float d[36] = {};
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  for (int i = 0; i < 4; ++i)
    for (int h = 0; h < 2; ++h) {
      const uint32_t aa = smem_u32(sa) + i * 4096 + h * 32, bb = smem_u32(sb) + (2 * i + h) * (N * 32);
      const uint64_t da =
          uint64_t((aa & 0x3ffffu) >> 4) | (uint64_t(1) << 16) | (uint64_t(512 >> 4) << 32) | (uint64_t(2) << 62);
      const uint64_t db = uint64_t((bb & 0x3ffffu) >> 4) | (uint64_t(128 >> 4) << 16) | (uint64_t(256 >> 4) << 32);
      wgmma_n72(d, da, db, i + h);
    }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  float* ow = dw + size_t(blockIdx.x) * M * N;
  for (int jj = 0; jj < 9; ++jj)
    for (int e = 0; e < 4; ++e) *out(ow, jj, e) = d[4 * jj + e];
  // The same chain on mma.sync: warp w takes rows 16 w .. 16 w + 15, k blocks in the same order.
  const auto a_word = [&](int m, int k) { return *reinterpret_cast<const uint32_t*>(a + m * K + k); };
  const auto b_word = [&](int k, int n) {
    const __nv_bfloat16 lo = b[k * N + n], hi = b[(k + 1) * N + n];
    return uint32_t(*reinterpret_cast<const uint16_t*>(&lo)) | (uint32_t(*reinterpret_cast<const uint16_t*>(&hi)) << 16);
  };
  float* om = dm + size_t(blockIdx.x) * M * N;
  for (int jj = 0; jj < 9; ++jj) {
    float acc[4] = {};
    for (int s = 0; s < 8; ++s) {
      const int k0 = 16 * s, m0 = 16 * w, n = 8 * jj + g;
      mma_bf16(acc, a_word(m0 + g, k0 + 2 * c), a_word(m0 + g + 8, k0 + 2 * c), a_word(m0 + g, k0 + 2 * c + 8),
               a_word(m0 + g + 8, k0 + 2 * c + 8), b_word(k0 + 2 * c, n), b_word(k0 + 2 * c + 8, n));
    }
    for (int e = 0; e < 4; ++e) *out(om, jj, e) = acc[e];
  }
}

#define CHECK(x)                                                         \
  do {                                                                   \
    if (const cudaError_t err = (x); err != cudaSuccess) {               \
      printf("%s: %s\n", #x, cudaGetErrorString(err));                   \
      return 2;                                                          \
    }                                                                    \
  } while (0)

int main() {
  const int tiles = 2000;
  std::vector<__nv_bfloat16> A(size_t(tiles) * M * K), B(size_t(tiles) * K * N);
  srand(7);
  const auto draw = [] {  // magnitudes 2^-6 .. 2^6, both signs
    const float u = (rand() + 0.5f) / RAND_MAX * 2 - 1;
    return __float2bfloat16(u * ldexpf(1.0f, rand() % 13 - 6));
  };
  for (auto& x : A) x = draw();
  for (auto& x : B) x = draw();
  const size_t outs = size_t(tiles) * M * N;
  __nv_bfloat16 *da = nullptr, *db = nullptr;
  float *dw = nullptr, *dm = nullptr;
  CHECK(cudaMalloc(&da, A.size() * 2));
  CHECK(cudaMalloc(&db, B.size() * 2));
  CHECK(cudaMalloc(&dw, outs * 4));
  CHECK(cudaMalloc(&dm, outs * 4));
  CHECK(cudaMemcpy(da, A.data(), A.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, B.data(), B.size() * 2, cudaMemcpyHostToDevice));
  compare<<<tiles, 128>>>(da, db, dw, dm);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> W(outs), Mm(outs);
  CHECK(cudaMemcpy(W.data(), dw, outs * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(Mm.data(), dm, outs * 4, cudaMemcpyDeviceToHost));
  size_t differ = 0;
  for (size_t i = 0; i < outs; ++i) differ += memcmp(&W[i], &Mm[i], 4) != 0;
  double worst = 0.0;  // sanity: wgmma against float64 on tile 0
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double s = 0.0;
      for (int k = 0; k < K; ++k) s += double(__bfloat162float(A[m * K + k])) * double(__bfloat162float(B[k * N + n]));
      worst = fmax(worst, fabs(s - W[m * N + n]) / (fabs(s) + 1e-6));
    }
  printf("wgmma vs mma.sync: %zu of %zu outputs differ; wgmma vs float64 (tile 0): max relative error %.3g\n", differ,
         outs, worst);
  return differ == 0 ? 0 : 1;
}
