"""Prepared in session 25 for the next (not run): the block-wide picks of topk.cu (every kernel but the six-block
one, which picks with one warp) without CUB's raking block scan. Each warp sums its threads' bins (the histogram
ranked from the top) into one total; after one barrier every warp scans the kWarps totals with five shuffles, finds
the first warp whose running count reaches `want`, and only that warp scans its lanes to find the bin. One barrier
and no serial raking loop instead of CUB's two barriers and a 32-step raking scan by one warp (1024 threads). The
same picks (same sel_digit / sel_remaining / sel_count / sel_total; the six-block kernel's pick_top_down untouched).
Apply from the repository root: python3 warp_total_pick_patch.py"""
p = "csrc/cuda/topk.cu"
s = open(p).read()


def rep(old, new):
    global s
    assert s.count(old) == 1, old[:80]
    s = s.replace(old, new)


rep("""  using Scan = cub::BlockScan<uint32_t, kThreads>;
  typename Scan::TempStorage scan;
""", """  uint32_t warp_total[kWarps];  // pick_digit: each warp's bins summed (ranked from the top)
""")
rep("#include <cub/block/block_scan.cuh>\n", "")
rep("""    // Thread q holds the bins ranked q * B .. q * B + B - 1 from the top.
    uint32_t count[S::kBinsPerThread], above[S::kBinsPerThread];""",
    """    // Thread q holds the bins ranked q * B .. q * B + B - 1 from the top.
    uint32_t count[S::kBinsPerThread];""")
rep("""    uint32_t total;
    typename S::Scan(sh.scan).ExclusiveSum(count, above, total);
    const uint32_t remaining = want(total);
#pragma unroll
    for (int j = 0; j < S::kBinsPerThread; ++j) {
      if (count[j] != 0 && above[j] < remaining && above[j] + count[j] >= remaining) {
        sh.sel_digit = uint32_t(kTopkBins - 1 - (threadIdx.x * S::kBinsPerThread + j));
        sh.sel_remaining = remaining - above[j];
        sh.sel_count = count[j];
      }
    }
    if (threadIdx.x == 0) sh.sel_total = total;""",
    """    // The running count from the top without a block scan: each warp's total, one barrier, then every warp
    // scans the warps' totals (five shuffles) and only the warp where the count reaches `want` scans its lanes.
    const uint32_t lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
    uint32_t mine = 0;
#pragma unroll
    for (int j = 0; j < S::kBinsPerThread; ++j) mine += count[j];
    const uint32_t warp_sum = __reduce_add_sync(0xffffffffu, mine);
    if (lane == 0) sh.warp_total[warp] = warp_sum;
    __syncthreads();
    const uint32_t v = lane < uint32_t(S::kWarps) ? sh.warp_total[lane] : 0u;
    uint32_t through = v;  // warps 0 .. lane
#pragma unroll
    for (int o = 1; o < kWarp; o <<= 1) {
      const uint32_t t = __shfl_up_sync(0xffffffffu, through, o);
      if (lane >= uint32_t(o)) through += t;
    }
    const uint32_t total = __shfl_sync(0xffffffffu, through, kWarp - 1);
    const uint32_t remaining = want(total);
    const uint32_t reached = __ballot_sync(0xffffffffu, through >= remaining);
    if (reached != 0 && warp == uint32_t(__ffs(reached) - 1)) {
      uint32_t run = __shfl_sync(0xffffffffu, through - v, warp);  // the warps above this one
      uint32_t lanes = mine;  // this lane and the lanes above it
#pragma unroll
      for (int o = 1; o < kWarp; o <<= 1) {
        const uint32_t t = __shfl_up_sync(0xffffffffu, lanes, o);
        if (lane >= uint32_t(o)) lanes += t;
      }
      run += lanes - mine;
#pragma unroll
      for (int j = 0; j < S::kBinsPerThread; ++j) {
        if (count[j] != 0 && run < remaining && run + count[j] >= remaining) {
          sh.sel_digit = uint32_t(kTopkBins - 1 - (threadIdx.x * S::kBinsPerThread + j));
          sh.sel_remaining = remaining - run;
          sh.sel_count = count[j];
        }
        run += count[j];
      }
    }
    if (threadIdx.x == 0) sh.sel_total = total;""")
rep("""// CUB's block scan over all 2048 bins cost every warp ~80 instructions a pick, and the 40-register
// kernel rematerialised its lane indices around it: 23 % of its instructions (benchmarks/NOTES.md).""",
    """// A block scan over all 2048 bins (CUB's, then) cost every warp ~80 instructions a pick, and the 40-register
// kernel rematerialised its lane indices around it: 23 % of its instructions (benchmarks/NOTES.md).""")
rep("""// order-preserving 32-bit key (11, 11, 10-bit digits; a CUB scan picks each digit, one warp in the
// six-block kernel, stopping""", """// order-preserving 32-bit key (11, 11, 10-bit digits; the warps' totals pick each digit, one warp in
// the six-block kernel, stopping""")
rep("""// kWarpPick: an unclustered block picks its digits with one warp (pick_top_down) rather than a
// block-wide CUB scan.""", """// kWarpPick: an unclustered block picks its digits with one warp (pick_top_down) rather than from
// every warp's total (pick_digit).""")
open(p, "w").write(s)
print("patched", p)
