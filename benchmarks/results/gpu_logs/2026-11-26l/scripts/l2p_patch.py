p='csrc/cuda/topk_warp_rows.cu'
s=open(p).read()
def rep(a,b,cnt=1):
    global s
    assert s.count(a)==cnt, (s.count(a), a[:80])
    s=s.replace(a,b)
rep("""template <int kSteps, int kGroup>
struct alignas(16) BlockSmem {
  static constexpr int kRows = kBlockWarps / kGroup;
  uint32_t hist[kRows][kTopkBins + 4];
  uint32_t counts[kRows][kGroup][2];
  alignas(16) float row[kBlockWarps][kSteps * kWarp];
};""","""// Rows of 1025-2048 columns on one warp read their keys straight from global memory, the next row
// prefetched into L2 meanwhile: without the 8 KB row copy a warp needs ~8 KB of shared memory, so
// four blocks (16 warps, 128 registers) fit an SM instead of three.
template <int kSteps, int kGroup>
constexpr bool keys_from_l2() { return kSteps == 64 && kGroup == 1; }
template <int kSteps, int kGroup>
struct alignas(16) BlockSmem {
  static constexpr int kRows = kBlockWarps / kGroup;
  static constexpr bool kFromL2 = keys_from_l2<kSteps, kGroup>();
  uint32_t hist[kRows][kTopkBins + 4];
  uint32_t counts[kRows][kGroup][2];
  alignas(16) float row[kFromL2 ? 1 : kBlockWarps][kFromL2 ? 4 : kSteps * kWarp];
};""")
rep("""// A row's selection by its group.""","""// L2 prefetch of a row part of len (<= 32 kSteps) contiguous entries at src: a 128-byte line a lane
// and step. Strided rows are not prefetched.
template <int kSteps>
__device__ __forceinline__ void prefetch_l2(const float* src, int64_t cs, uint32_t len) {
  if (cs != 1) return;
  const uint32_t lane = threadIdx.x % kWarp;
#pragma unroll
  for (int q = 0; q < kSteps / kWarp; ++q) {
    const uint32_t j = (q * kWarp + lane) * kWarp;  // the line's first entry
    if (j < len) asm volatile("prefetch.global.L2 [%0];" ::"l"(src + j));
  }
}

// A row's selection by its group.""")
rep("""__device__ __forceinline__ void select_row(BlockSmem<kSteps, kGroup>& sm, int slot, int part, uint32_t len,
                                           uint32_t k, int32_t* out, const float* next_src, int64_t cs,
                                           uint32_t next_len) {""","""__device__ __forceinline__ void select_row(BlockSmem<kSteps, kGroup>& sm, int slot, int part, const float* src,
                                           uint32_t len, uint32_t k, int32_t* out, const float* next_src,
                                           int64_t cs, uint32_t next_len) {""")
rep("""  float* const row = sm.row[threadIdx.x / kWarp];
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncwarp();
  // Keys are topk_row_key, 0 past the window: counted like any key, never selected (the k-th
  // largest key is >= 1 because the row has more than k entries), so no pass checks the length.
  uint32_t key[kSteps];
  if (len == kSteps * kWarp) {""","""  // Keys are topk_row_key, 0 past the window: counted like any key, never selected (the k-th
  // largest key is >= 1 because the row has more than k entries), so no pass checks the length.
  uint32_t key[kSteps];
  if constexpr (keys_from_l2<kSteps, kGroup>()) {
    float v[kSteps];
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      const uint32_t j = s * kWarp + lane;
      v[s] = j < len ? __ldg(src + int64_t(j) * cs) : 0.0f;
    }
    if (next_src != nullptr) prefetch_l2<kSteps>(next_src, cs, next_len);
#pragma unroll
    for (int s = 0; s < kSteps; ++s) key[s] = s * kWarp + lane < len ? topk_row_key(v[s]) : 0u;
  } else {
  float* const row = sm.row[threadIdx.x / kWarp];
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncwarp();
  if (len == kSteps * kWarp) {""")
rep("""  __syncwarp();  // every lane has read its entries before the next row's copy overwrites them
  if (next_src != nullptr) prefetch_row<kSteps>(next_src, cs, next_len, row);
""","""  __syncwarp();  // every lane has read its entries before the next row's copy overwrites them
  if (next_src != nullptr) prefetch_row<kSteps>(next_src, cs, next_len, row);
  }
""")
rep("""__global__ void __launch_bounds__(kBlockWarps * kWarp, 64 / kSteps + 2) topk_warp_rows_kernel(TopKParams p) {""",
"""__global__ void __launch_bounds__(kBlockWarps * kWarp, keys_from_l2<kSteps, kGroup>() ? 4 : 64 / kSteps + 2)
    topk_warp_rows_kernel(TopKParams p) {""")
rep("""  float* const buf = sm.row[warp];""","""  float* const buf = Smem::kFromL2 ? nullptr : sm.row[warp];""")
rep("""    prefetch_row<kSteps>(mine.src, p.logits_col_stride, uint32_t(mine.len), buf);
  }""","""    if constexpr (Smem::kFromL2) {
      prefetch_l2<kSteps>(mine.src, p.logits_col_stride, uint32_t(mine.len));
    } else {
      prefetch_row<kSteps>(mine.src, p.logits_col_stride, uint32_t(mine.len), buf);
    }
  }""")
rep("""      if (next_src != nullptr) prefetch_row<kSteps>(next_src, p.logits_col_stride, uint32_t(next_mine.len), buf);""",
"""      if (next_src != nullptr) {
        if constexpr (Smem::kFromL2) {
          prefetch_l2<kSteps>(next_src, p.logits_col_stride, uint32_t(next_mine.len));
        } else {
          prefetch_row<kSteps>(next_src, p.logits_col_stride, uint32_t(next_mine.len), buf);
        }
      }""")
rep("""      select_row<kSteps, kGroup>(sm, slot, part, uint32_t(mine.len), uint32_t(p.k), out, next_src,
                                 p.logits_col_stride, uint32_t(next_mine.len));""","""      select_row<kSteps, kGroup>(sm, slot, part, mine.src, uint32_t(mine.len), uint32_t(p.k), out, next_src,
                                 p.logits_col_stride, uint32_t(next_mine.len));""")
open(p,'w').write(s)
print("patched")
