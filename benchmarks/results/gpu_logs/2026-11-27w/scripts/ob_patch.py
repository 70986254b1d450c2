"""ob (session 23): ordered_bases sums the warps' counts and the lower ranks' counts with warp reductions (lane w
reads warp w's count; __reduce_add_sync) instead of a 32-step unrolled loop per warp and a loop over the lower ranks.
Source counters of a3 (call 8, 1 x 65536 k = 2048): those loops held 21 % of the "no instruction" samples (every warp
fetches ~200 instructions that run once a row)."""
p = "csrc/cuda/topk.cu"
s = open(p).read()

def rep(old, new, count=1):
    global s
    assert s.count(old) == count, (old[:80], s.count(old))
    s = s.replace(old, new)

rep("""  __syncthreads();
  above_base = on_base = 0;
  uint32_t block_above = 0, block_on = 0;
  for (int w = 0; w < SharedFor<kThreads, G>::kWarps; ++w) {
    if (w == warp) {
      above_base = block_above;
      on_base = block_on;
    }
    block_above += sh.warp_count[0][w];
    block_on += sh.warp_count[1][w];
  }""", """  __syncthreads();
  // Lane w holds warp w's counts: this warp's bases are the lanes below it, the block's the sums.
  const uint32_t lane = threadIdx.x % kWarp;
  const bool counted = lane < uint32_t(SharedFor<kThreads, G>::kWarps);
  const uint32_t w_above = counted ? sh.warp_count[0][lane] : 0u, w_on = counted ? sh.warp_count[1][lane] : 0u;
  above_base = __reduce_add_sync(0xffffffffu, lane < uint32_t(warp) ? w_above : 0u);
  on_base = __reduce_add_sync(0xffffffffu, lane < uint32_t(warp) ? w_on : 0u);
  const uint32_t block_above = __reduce_add_sync(0xffffffffu, w_above);
  const uint32_t block_on = __reduce_add_sync(0xffffffffu, w_on);""")
rep("""    for (uint32_t r = 0; r < g.rank; ++r) {
      above_base += sh.lower_count[r][0];
      on_base += sh.lower_count[r][1];
    }""", """    above_base += __reduce_add_sync(0xffffffffu, lane < g.rank ? sh.lower_count[lane][0] : 0u);
    on_base += __reduce_add_sync(0xffffffffu, lane < g.rank ? sh.lower_count[lane][1] : 0u);""")
open(p, "w").write(s)
print("patched ob")
