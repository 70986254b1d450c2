"""xr (session 24, prepared for the next session; not run: no device time left): the four-block top-k kernel (prefill
rows of 8193 columns up to the 1024-thread kernel's, one 256-thread block a row, four blocks an SM) prefetches into
L2 the first NEXT_GROUPS stream groups of its next row while this row's chain runs (the keys, picks, walks and the
ordered write after the stream). Session 23's arithmetic: a block streams ~40 % of its time, so HBM idles between
a block's streams unless another block streams then; 4096 x 32768 needs ~27 KB in flight per SM at all times for
its 220 us goal. L2 footprint: 16 steps x 128 B x 8 warps = 16 KB a group and block (528 blocks: 8.4 MB a group).

The next row's window values (prefill: row_starts / row_ends) come into shared memory by cp.async, issued by each
warp's lane 0 at the row's start and waited for by that lane after the stream: no register holds them across the
stream, and no warp waits for them at the row's start. (Held in registers, ptxas moved them into uniform registers
right after the loads, so each row waited for them at its start; loaded one per lane to avoid that, the four-block
kernel's spills went from 4/8 to 92/116 bytes.)

Usage, in a tree copy: NEXT_GROUPS=1 python3 next_row_prefetch_patch.py (/tmp/vb/build.sh xr1 "NEXT_GROUPS=1 python3
<this>"); A/B with ../2026-11-27w/scripts/s23_call9.sh (prefill rows of bench_topk.py), sanitizers with
../2026-11-27w/scripts/race23_prefill.py."""
import os
groups = int(os.environ.get("NEXT_GROUPS", "1"))
p = "csrc/cuda/topk.cu"
s = open(p).read()
def rep(old, new):
    global s
    assert s.count(old) == 1, old[:70]
    s = s.replace(old, new)

rep("""// A slice of a row longer than k (entries offset .. offset + n - 1 of the row's `len`): the sample,""",
"""// xr: each warp's copy of the next row's raw window (row_starts, row_ends), filled by cp.async.
template <int kWarps>
__device__ __forceinline__ int32_t (&next_row_raw())[kWarps][2] {
  __shared__ int32_t raw[kWarps][2];
  return raw;
}
__device__ __forceinline__ void cp_async4(void* dst, const void* src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(uint32_t(__cvta_generic_to_shared(dst))), "l"(src)
               : "memory");
}
constexpr uint32_t kNextGroups = @G@;

// A slice of a row longer than k (entries offset .. offset + n - 1 of the row's `len`): the sample,""".replace("@G@", str(groups)))
rep("""template <int kThreads, int kStream, uint32_t kPrefetch, bool kTwoGroups, class G>
__device__ void select_row(const float* slice, uint32_t n, int64_t col_stride, uint32_t offset, uint32_t len,
                           uint32_t k, uint2* cand, uint32_t cand_cap, int32_t* out,
                           SharedFor<kThreads, G>& sh, G& g) {""",
"""template <int kThreads, int kStream, uint32_t kPrefetch, bool kTwoGroups, bool kNextRow, class G>
__device__ void select_row(const float* slice, uint32_t n, int64_t col_stride, uint32_t offset, uint32_t len,
                           uint32_t k, uint2* cand, uint32_t cand_cap, int32_t* out,
                           SharedFor<kThreads, G>& sh, G& g, const TopKParams& p, int64_t next_r) {""")
rep("""  // Each warp turns its stored values into keys, counting their first digit unless the sample
  // was exact (the candidates' first digit is then known).
  if (!exact) {""", """  if constexpr (kNextRow) {  // xr: the next row's first groups into L2 while this row's chain runs
    if (next_r < p.rows && col_stride == 1) {
      if (lane == 0) asm volatile("cp.async.wait_all;" ::: "memory");
      __syncwarp();
      const int32_t* raw = next_row_raw<kWarps>()[warp];
      const int64_t s2 = clamp64(raw[0], 0, p.width), e2 = clamp64(raw[1], s2, p.width);
      if (e2 - s2 > int64_t(k)) {
        const uint32_t n2 = uint32_t(e2 - s2);
        const uint32_t chunk2 = ((n2 + kWarps - 1) / kWarps + kWarp - 1) / kWarp * kWarp;
        const float* row2 = p.logits + next_r * p.logits_row_stride + s2;
#pragma unroll
        for (uint32_t d = 0; d < kNextGroups; ++d)
          prefetch_group<kStream>(row2, n2, warp * chunk2, chunk2 / kWarp, d * kStream);
      }
    }
  }
  // Each warp turns its stored values into keys, counting their first digit unless the sample
  // was exact (the candidates' first digit is then known).
  if (!exact) {""")
rep("""    int64_t start = 0, len = 0;
    topk_row_window(p, r, &start, &len);
    int32_t* out = p.indices + r * p.indices_row_stride;""", """    // xr (the four-block kernel, prefill rows): the next row's window values on their way into shared memory.
    constexpr bool kNextRow = !kClustered && kThreads < 1024 && kBlocks <= 4;
    const int64_t next_r = r + gridDim.x;
    if (kNextRow && p.row_starts != nullptr && next_r < p.rows && threadIdx.x % kWarp == 0) {
      int32_t(&raw)[2] = next_row_raw<kThreads / kWarp>()[threadIdx.x / kWarp];
      cp_async4(&raw[0], p.row_starts + next_r);
      cp_async4(&raw[1], p.row_ends + next_r);
      asm volatile("cp.async.commit_group;" ::: "memory");
    }
    int64_t start = 0, len = 0;
    topk_row_window(p, r, &start, &len);
    int32_t* out = p.indices + r * p.indices_row_stride;""")
rep("""      select_row<kThreads, kTwoGroups ? kTwoGroupSteps : stream_steps(kThreads, kBlocks),
                 kTwoGroups ? 0u : stream_prefetch(kThreads, kBlocks), kTwoGroups>(""",
"""      select_row<kThreads, kTwoGroups ? kTwoGroupSteps : stream_steps(kThreads, kBlocks),
                 kTwoGroups ? 0u : stream_prefetch(kThreads, kBlocks), kTwoGroups, kNextRow>(""")
rep("""          out, sh, g);
    }""", """          out, sh, g, p, p.row_starts != nullptr ? next_r : p.rows);
    }""")
open(p, "w").write(s)
print(f"patched xr{groups}")
