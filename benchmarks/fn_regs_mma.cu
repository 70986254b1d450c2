// Can mhc_pre's projection at D = 4096 keep fn in registers instead of shared memory, and still keep up with
// HBM? benchmarks/NOTES.md (session 2026-11-27 (20)) measured the held collapse (no L2 re-read, no load lag)
// at 78-82 % of the floor once the Gram matrix is off the projection warps, but the held tile needs the 144 KB
// that fn's bf16 parts take in shared memory. The design of session 2026-11-26 (4): stage-owner warps, warp v
// keeping stage v's fn slice (24 rows x 4 streams x 32 d x 3 bf16 parts: 144 registers a lane, as mma.sync
// m16n8k16 B fragments) for the whole kernel, projecting every tile's stage v on mma.sync, the pipeline
// worker's chains (a chain a part and row tile over the 4 streams x 2 k16 steps, folded (lo + mid) + hi).
// This measures that warp's issue rate alone: 8 warps, one a stage, each projecting its stage of 64-token
// tiles from shared memory (the TMA box's row layout: 64 bytes a token and stream), with or without the sum
// of squares on CUDA cores. The budget a tile is what HBM gives an SM: 128 KB a tile at 2.97 TB/s over 112
// SMs (7 clusters of 16) is 4.9 us, ~9.7 K cycles at 1.98 GHz.
// Build and run on the GPU machine (not part of the package or the tests):
//   nvcc -gencode arch=compute_90a,code=sm_90a -O3 -Xptxas -v -o fn_regs_mma benchmarks/fn_regs_mma.cu && ./fn_regs_mma
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

constexpr int kStages = 8, kTile = 64, kStreams = 4, kRowTiles = 3, kParts = 3;
constexpr int kChunks = kStages * kStreams * kTile * 4;  // 16-byte chunks of a tile: [stage][stream][token][chunk]

__device__ __forceinline__ void mma_bf16(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                         uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

__device__ __forceinline__ float lo_f32(uint32_t w) { return __uint_as_float(w << 16); }
__device__ __forceinline__ float hi_f32(uint32_t w) { return __uint_as_float(w & 0xffff0000u); }

// kSquares: also the sum of squares of the lane's 2 tokens x 8 d x 4 streams (FMA chains, quad butterfly).
template <bool kSquares>
__global__ void __launch_bounds__(256, 1) project(const uint32_t* fn_frag, const uint4* x, int tiles, float* sink,
                                                  unsigned long long* cycles) {
  extern __shared__ uint4 smem[];
  for (int q = threadIdx.x; q < kChunks; q += blockDim.x) smem[q] = x[q];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, c = lane % 4;
  // Stage `warp`'s fn B fragments: [row tile][stream][k16 step][part][2 words], 144 registers.
  uint32_t b[kRowTiles][kStreams][2][kParts][2];
#pragma unroll
  for (int nt = 0; nt < kRowTiles; ++nt)
#pragma unroll
    for (int i = 0; i < kStreams; ++i)
#pragma unroll
      for (int u = 0; u < 2; ++u)
#pragma unroll
        for (int p = 0; p < kParts; ++p)
#pragma unroll
          for (int e = 0; e < 2; ++e)
            b[nt][i][u][p][e] = fn_frag[(((((warp * kRowTiles + nt) * kStreams + i) * 2 + u) * kParts + p) * 2 + e) * 32 + lane];
  __syncthreads();
  float total = 0.0f;
  const long long t0 = clock64();
  for (int j = 0; j < tiles; ++j) {
#pragma unroll 1
    for (int grp = 0; grp < kTile / 16; ++grp) {
      uint4 r[2][kStreams];  // tokens 16 grp + g (+ 8), d 8c .. 8c + 7 of stage `warp`, every stream
#pragma unroll
      for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int i = 0; i < kStreams; ++i)
          r[h][i] = smem[((warp * kStreams + i) * kTile + 16 * grp + g + 8 * h) * 4 + c];
#pragma unroll
      for (int nt = 0; nt < kRowTiles; ++nt) {
        float ch[kParts][4] = {};
#pragma unroll
        for (int i = 0; i < kStreams; ++i)
#pragma unroll
          for (int p = 0; p < kParts; ++p) {
            mma_bf16(ch[p], r[0][i].x, r[1][i].x, r[0][i].y, r[1][i].y, b[nt][i][0][p][0], b[nt][i][0][p][1]);
            mma_bf16(ch[p], r[0][i].z, r[1][i].z, r[0][i].w, r[1][i].w, b[nt][i][1][p][0], b[nt][i][1][p][1]);
          }
#pragma unroll
        for (int q = 0; q < 4; ++q) total += (ch[2][q] + ch[1][q]) + ch[0][q];
      }
      if constexpr (kSquares) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          float s = 0.0f;
#pragma unroll
          for (int i = 0; i < kStreams; ++i) {
            const uint32_t w[4] = {r[h][i].x, r[h][i].y, r[h][i].z, r[h][i].w};
#pragma unroll
            for (int k = 0; k < 4; ++k) {
              s = fmaf(lo_f32(w[k]), lo_f32(w[k]), s);
              s = fmaf(hi_f32(w[k]), hi_f32(w[k]), s);
            }
          }
          const float v = s + __shfl_xor_sync(0xffffffffu, s, 1);
          total += v + __shfl_xor_sync(0xffffffffu, v, 2);
        }
      }
    }
  }
  const long long t1 = clock64();
  if (total == 1.2345f) sink[blockIdx.x] = total;  // keeps the work
  if (lane == 0) atomicMax(&cycles[blockIdx.x], (unsigned long long)(t1 - t0));
}

template <bool kSquares>
void run(const uint32_t* fn_frag, const uint4* x, float* sink, unsigned long long* cycles, int sms) {
  constexpr int kTiles = 200;
  const size_t smem = size_t(kChunks) * 16;
  cudaFuncSetAttribute(project<kSquares>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
  for (int rep = 0; rep < 2; ++rep) {
    cudaMemset(cycles, 0, sms * sizeof(unsigned long long));
    project<kSquares><<<sms, 256, smem>>>(fn_frag, x, kTiles, sink, cycles);
    if (cudaDeviceSynchronize() != cudaSuccess) {
      std::printf("launch failed: %s\n", cudaGetErrorString(cudaGetLastError()));
      return;
    }
  }
  std::vector<unsigned long long> h(sms);
  cudaMemcpy(h.data(), cycles, sms * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  unsigned long long mx = 0, sum = 0;
  for (unsigned long long v : h) mx = v > mx ? v : mx, sum += v;
  std::printf("%-26s cycles a tile (64 tokens, 8 stages, one warp a stage): mean %.0f, max %.0f; "
              "budget at the HBM roof ~9700\n",
              kSquares ? "mma + sum of squares" : "mma only", double(sum) / sms / kTiles, double(mx) / kTiles);
}

}  // namespace

int main() {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const size_t frag_words = size_t(kStages) * kRowTiles * kStreams * 2 * kParts * 2 * 32;
  std::vector<uint32_t> frag(frag_words);
  std::vector<uint4> xs(kChunks);
  uint32_t seed = 12345u;
  const auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  // bf16 pairs of moderate magnitude (exponent bits fixed so that no value is NaN or Inf)
  const auto word = [&] { return (next() & 0x807f807fu) | 0x3f003f00u; };
  for (auto& w : frag) w = word();
  for (auto& v : xs) v = make_uint4(word(), word(), word(), word());
  uint32_t* d_frag = nullptr;
  uint4* d_x = nullptr;
  float* d_sink = nullptr;
  unsigned long long* d_cycles = nullptr;
  cudaMalloc(&d_frag, frag_words * 4);
  cudaMalloc(&d_x, size_t(kChunks) * 16);
  cudaMalloc(&d_sink, sms * sizeof(float));
  cudaMalloc(&d_cycles, sms * sizeof(unsigned long long));
  cudaMemcpy(d_frag, frag.data(), frag_words * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, xs.data(), size_t(kChunks) * 16, cudaMemcpyHostToDevice);
  run<false>(d_frag, d_x, d_sink, d_cycles, sms);
  run<true>(d_frag, d_x, d_sink, d_cycles, sms);
  cudaFree(d_frag);
  cudaFree(d_x);
  cudaFree(d_sink);
  cudaFree(d_cycles);
  return 0;
}
