"""oc (session 24, prepared for the next session; not run: no device time left): a clustered block's counts for the
ordered write (its keys above the final prefix and on it) come out of the picks, so that it sends them to the higher
ranks before its count walk and block barrier instead of after them.

Each pick of a clustered kernel scans its bins as 64-bit pairs, (this block's own count << 32) | the cluster's
count (the low half cannot carry: a row has fewer than 2^32 keys): the low half is the scan it was, the high half
this block's keys in the bins above each bin. The thread that finds the picked bin also publishes that and its own
count of the bin; every thread adds them to Selection::own_above / sets own_on. Each pass's histogram counts
exactly the keys on the prefix so far, so after the last pick own_above is this block's keys above the final
prefix and own_on its keys on it: ordered_bases' block_above / block_on, known before the walk. (A fresh
Selection starts at zero: the non-exact path's candidate pick and select_slice's; the exact path continues from the
sample's pick, which counted every key.) ordered_bases then sends them first and waits for the lower ranks' after
its walk. Session 23's trace: the ordered counts took 3.2 K cycles of a 1 x 65536 row (walk, barrier, warp sums
2.19 K, then the exchange).

Checks before timing: ptxas spills of the 1024-thread clustered kernels (64 registers); the decode tests and
race23_decode.py (exactness, ascending order) and the sanitizers; then s23_call9.sh's A/B."""
p = "csrc/cuda/topk.cu"
s = open(p).read()
def rep(old, new):
    global s
    assert s.count(old) == 1, old[:70]
    s = s.replace(old, new)

rep("""  using Scan = cub::BlockScan<uint32_t, kThreads>;""",
    """  // Clustered: pairs (own << 32 | cluster), so that a pick also gives this block's counts (ordered_bases).
  using Scan = cub::BlockScan<std::conditional_t<kClustered, uint64_t, uint32_t>, kThreads>;""")
rep("""  uint32_t sel_digit, sel_remaining, sel_count, sel_total;""",
    """  uint32_t sel_digit, sel_remaining, sel_count, sel_total, sel_own_above, sel_own_count;""")
rep("""struct Selection {
  uint32_t prefix = 0, mask = 0, remaining = 0, on_prefix = 0;
};""", """struct Selection {
  uint32_t prefix = 0, mask = 0, remaining = 0, on_prefix = 0;
  // Clustered: this block's keys above the prefix and on it (from the picks' pair scans).
  uint32_t own_above = 0, own_on = 0;
};""")
# Own bins kept apart from the cluster's in every clustered exchange.
rep("""    uint32_t count[S::kBinsPerThread], above[S::kBinsPerThread];
#pragma unroll
    for (int j = 0; j < S::kBinsPerThread; ++j) count[j] = 0;""", """    uint32_t count[S::kBinsPerThread], above[S::kBinsPerThread], own[S::kBinsPerThread], own_above[S::kBinsPerThread];
#pragma unroll
    for (int j = 0; j < S::kBinsPerThread; ++j) count[j] = own[j] = own_above[j] = 0;""")
rep("""    __syncthreads();  // this block's histogram is complete
    if constexpr (!G::kClustered) {
      add_bins(hist);
    } else {""", """    __syncthreads();  // this block's histogram is complete
    if constexpr (!G::kClustered) {
      add_bins(hist);
    } else {
      add_bins(hist);  // oc: this block's own bins first, kept apart
#pragma unroll
      for (int j = 0; j < S::kBinsPerThread; ++j) {
        own[j] = count[j];
        count[j] = 0;
      }""")
# a2a: its own add_bins(hist) is now done above (count was reset; re-add own at the end)
rep("""        mbar_wait(&sh.hist_full[buf], (g.hist_phases >> buf) & 1u);
        g.hist_phases ^= 1u << buf;
        add_bins(hist);
        const uint32_t word""", """        mbar_wait(&sh.hist_full[buf], (g.hist_phases >> buf) & 1u);
        g.hist_phases ^= 1u << buf;
        const uint32_t word""")
rep("""        mbar_wait(&sh.hist_full[buf], (g.hist_phases >> buf) & 1u);
        g.hist_phases ^= 1u << buf;
        add_bins(hist);
        add_bins(recv);""", """        mbar_wait(&sh.hist_full[buf], (g.hist_phases >> buf) & 1u);
        g.hist_phases ^= 1u << buf;
        add_bins(recv);""")
# push path: sum already includes own pushes; subtract own so that count is the others' (added back below)
rep("""        g.sync();  // every block's pushes landed
        add_bins(sum);""", """        g.sync();  // every block's pushes landed
        add_bins(sum);
#pragma unroll
        for (int j = 0; j < S::kBinsPerThread; ++j) count[j] -= own[j];  // the sums include this block's""")
rep("""    uint32_t total;
    typename S::Scan(sh.scan).ExclusiveSum(count, above, total);
    const uint32_t remaining = want(total);""", """    uint32_t total;
    if constexpr (G::kClustered) {
      uint64_t pair[S::kBinsPerThread], pair_above[S::kBinsPerThread], pair_total;
#pragma unroll
      for (int j = 0; j < S::kBinsPerThread; ++j) {
        count[j] += own[j];
        pair[j] = uint64_t(own[j]) << 32 | count[j];
      }
      typename S::Scan(sh.scan).ExclusiveSum(pair, pair_above, pair_total);
#pragma unroll
      for (int j = 0; j < S::kBinsPerThread; ++j) {
        above[j] = uint32_t(pair_above[j]);
        own_above[j] = uint32_t(pair_above[j] >> 32);
      }
      total = uint32_t(pair_total);
    } else {
      typename S::Scan(sh.scan).ExclusiveSum(count, above, total);
    }
    const uint32_t remaining = want(total);""")
rep("""        sh.sel_digit = uint32_t(kTopkBins - 1 - (threadIdx.x * S::kBinsPerThread + j));
        sh.sel_remaining = remaining - above[j];
        sh.sel_count = count[j];
      }""", """        sh.sel_digit = uint32_t(kTopkBins - 1 - (threadIdx.x * S::kBinsPerThread + j));
        sh.sel_remaining = remaining - above[j];
        sh.sel_count = count[j];
        if constexpr (G::kClustered) {
          sh.sel_own_above = own_above[j];
          sh.sel_own_count = own[j];
        }
      }""")
rep("""  sel.on_prefix = sh.sel_count;
  const uint32_t total = sh.sel_total;""", """  sel.on_prefix = sh.sel_count;
  if constexpr (G::kClustered) {
    sel.own_above += sh.sel_own_above;
    sel.own_on = sh.sel_own_count;
  }
  const uint32_t total = sh.sel_total;""")
# ordered_bases: send first, from the picks' counts
rep("""  uint32_t n_above = 0, n_on = 0;
  walk.for_each([&](uint32_t, uint32_t key, bool valid) {
    n_above += __popc(__ballot_sync(0xffffffffu, valid && (key & sel.mask) > sel.prefix));""", """  if constexpr (G::kClustered) {
    // oc: this block's counts (from the picks) into every higher rank's slot before the walk, so that they are
    // there by the time those ranks wait for them.
    if (threadIdx.x == 0) {
      for (uint32_t r = g.rank + 1; r < g.size; ++r)
        st_async_u32x2(cluster_addr(&sh.lower_count[g.rank][0], r), sel.own_above, sel.own_on,
                       cluster_addr(&sh.counts_full, r));
      mbar_arm(&sh.counts_full, g.rank * uint32_t(sizeof(sh.lower_count[0])));
    }
  }
  uint32_t n_above = 0, n_on = 0;
  walk.for_each([&](uint32_t, uint32_t key, bool valid) {
    n_above += __popc(__ballot_sync(0xffffffffu, valid && (key & sel.mask) > sel.prefix));""")
rep("""  const uint32_t block_above = __reduce_add_sync(0xffffffffu, w_above);
  const uint32_t block_on = __reduce_add_sync(0xffffffffu, w_on);
  if constexpr (G::kClustered) {
    // This block's counts into every higher rank's slot, then wait for the lower ranks' (an
    // mbarrier that their bytes complete: no cluster barrier, so no block waits for the higher ranks).
    if (threadIdx.x == 0) {
      for (uint32_t r = g.rank + 1; r < g.size; ++r)
        st_async_u32x2(cluster_addr(&sh.lower_count[g.rank][0], r), block_above, block_on,
                       cluster_addr(&sh.counts_full, r));
      mbar_arm(&sh.counts_full, g.rank * uint32_t(sizeof(sh.lower_count[0])));
    }
    mbar_wait(&sh.counts_full, g.counts_phase);""", """  if constexpr (G::kClustered) {
    // The lower ranks' counts (an mbarrier that their bytes complete: no cluster barrier).
    mbar_wait(&sh.counts_full, g.counts_phase);""")
if "#include <type_traits>" not in s:
    rep("#include <tuple>\n", "#include <tuple>\n#include <type_traits>\n")
open(p, "w").write(s)
print("patched oc")
