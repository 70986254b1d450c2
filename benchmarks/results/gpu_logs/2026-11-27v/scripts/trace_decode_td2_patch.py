"""td2 (session 22; timing diagnostics only): td's phase stamps (../../2026-11-27u/scripts/trace_decode_td_patch.py,
applied first) made a sequence, plus stamps inside each pick (histogram complete, first barrier, pushes issued, cluster
barrier, scan, end), each digit pass (clear, walk) and the ordered write's counts (walk, block sums, mbarrier wait).
Thread 0 of ranks 0 and the last print `id:cycles` pairs from the PDL wait, one line per block, for one-row launches."""
import runpy
runpy.run_path("/work/main/benchmarks/results/gpu_logs/2026-11-27u/scripts/trace_decode_td_patch.py")
p = "csrc/cuda/topk.cu"
s = open(p).read()

def rep(old, new, count=1):
    global s
    assert s.count(old) == count, (old[:70], s.count(old))
    s = s.replace(old, new)

rep("""__device__ __forceinline__ long long& td_stamp(int i) {
  static __shared__ long long stamps[16];
  return stamps[i];
}
__device__ __forceinline__ void td_mark(int i) {
  if (threadIdx.x == 0) td_stamp(i) = clock64();
}""", """__device__ __forceinline__ long long& td_stamp(int i) {
  static __shared__ long long stamps[16];
  return stamps[i];
}
struct TdSeq {
  long long t[64];
  int id[64];
  int n;
};
__device__ __forceinline__ TdSeq& td_seq() {
  static __shared__ TdSeq q;
  return q;
}
__device__ __forceinline__ void td_mark(int i) {
  if (threadIdx.x == 0) {
    const long long c = clock64();
    if (i < 16) td_stamp(i) = c;
    TdSeq& q = td_seq();
    if (q.n < 64) {
      q.t[q.n] = c;
      q.id[q.n] = i;
      ++q.n;
    }
  }
}""")
# pick_digit (clustered)
rep("""    __syncthreads();  // this block's histogram is complete
    if constexpr (!G::kClustered) {""", """    __syncthreads();  // this block's histogram is complete
    td_mark(10);
    if constexpr (!G::kClustered) {""")
rep("""        cg::this_cluster().barrier_wait();
        g.start_pending = false;
      }
      if (!g.push()) {""", """        cg::this_cluster().barrier_wait();
        g.start_pending = false;
      }
      td_mark(11);
      if (!g.push()) {""")
rep("""            for (uint32_t r = 0; r < g.size; ++r) atomicAdd(g.remote(sum + b, r), c);
        g.sync();  // every block's pushes landed
        add_bins(sum);""", """            for (uint32_t r = 0; r < g.size; ++r) atomicAdd(g.remote(sum + b, r), c);
        td_mark(12);
        g.sync();  // every block's pushes landed
        td_mark(13);
        add_bins(sum);""")
rep("""    typename S::Scan(sh.scan).ExclusiveSum(count, above, total);
    const uint32_t remaining = want(total);""", """    typename S::Scan(sh.scan).ExclusiveSum(count, above, total);
    td_mark(14);
    const uint32_t remaining = want(total);""")
rep("""      g.sum_offset ^= kTopkBins;
    } else {  // the other block sends into this buffer again two picks on, after this one's reads
      g.sum_offset ^= kTopkBins;
    }
  }
  return total;""", """      g.sum_offset ^= kTopkBins;
    } else {  // the other block sends into this buffer again two picks on, after this one's reads
      g.sum_offset ^= kTopkBins;
    }
  }
  td_mark(15);
  return total;""")
# select_digit
rep("""  clear_hist(hist, kThreads);
  walk.for_each([&](uint32_t, uint32_t key, bool valid) {
    if (valid && (key & sel.mask) == sel.prefix) atomicAdd(&hist[(key >> shift) & digit_mask], 1u);
  });
  pick_digit(pass, sel, sh, g);""", """  clear_hist(hist, kThreads);
  td_mark(30);
  walk.for_each([&](uint32_t, uint32_t key, bool valid) {
    if (valid && (key & sel.mask) == sel.prefix) atomicAdd(&hist[(key >> shift) & digit_mask], 1u);
  });
  td_mark(31);
  pick_digit(pass, sel, sh, g);""")
# ordered_bases
rep("""    n_on += __popc(__ballot_sync(0xffffffffu, valid && (key & sel.mask) == sel.prefix));
  });
  const int warp = threadIdx.x / kWarp;""", """    n_on += __popc(__ballot_sync(0xffffffffu, valid && (key & sel.mask) == sel.prefix));
  });
  td_mark(20);
  const int warp = threadIdx.x / kWarp;""")
rep("""    block_on += sh.warp_count[1][w];
  }
  if constexpr (G::kClustered) {""", """    block_on += sh.warp_count[1][w];
  }
  td_mark(21);
  if constexpr (G::kClustered) {""")
rep("""    mbar_wait(&sh.counts_full, g.counts_phase);
    g.counts_phase ^= 1u;""", """    mbar_wait(&sh.counts_full, g.counts_phase);
    td_mark(22);
    g.counts_phase ^= 1u;""")
# select_row sample
rep("""  load(0);
  if (kPrefetch > 0 && col_stride == 1)  // the next groups come in while the sample is picked""", """  td_mark(40);
  load(0);
  if (kPrefetch > 0 && col_stride == 1)  // the next groups come in while the sample is picked""")
rep("""    if (u < steps && first + lane + u * kWarp < n) count_first_digit(hist, topk_row_key(v[u]));""",
    """    if (u < steps && first + lane + u * kWarp < n) count_first_digit(hist, topk_row_key(v[u]));
  td_mark(41);""")
rep("""  if (threadIdx.x == 0)
    for (int i = 0; i < 16; ++i) td_stamp(i) = 0;""", """  if (threadIdx.x == 0) {
    for (int i = 0; i < 16; ++i) td_stamp(i) = 0;
    td_seq().n = 0;
  }""")
rep("""  if (kClustered && p.rows == 1 && threadIdx.x == 0) {""", """  if (kClustered && p.rows == 1 && threadIdx.x == 0 && (g.rank == 0 || g.rank + 1 == g.size)) {
    TdSeq& q = td_seq();
    char line[1024];
    int o = 0;
    for (int i = 0; i < q.n && o < 1000; ++i) {
      const long long d = q.t[i] - q.t[0];
      // decimal by hand (device printf of a variable count of fields)
      char tmp[24];
      int m = 0;
      long long v = d < 0 ? 0 : d;
      do { tmp[m++] = char('0' + v % 10); v /= 10; } while (v && m < 20);
      int id = q.id[i];
      if (id >= 10) line[o++] = char('0' + id / 10);
      line[o++] = char('0' + id % 10);
      line[o++] = ':';
      while (m) line[o++] = tmp[--m];
      line[o++] = ' ';
    }
    line[o] = 0;
    printf("td2 rank %u: %s\\n", g.rank, line);
  }
  if (false) {""")
open(p, "w").write(s)
print("patched td2")
