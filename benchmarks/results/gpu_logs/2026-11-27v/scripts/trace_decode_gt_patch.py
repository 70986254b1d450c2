"""gt (session 22; timing diagnostics only): clock64 stamps of a clustered decode row with the gathered pivot bin
(finish_gathered): kernel start after the PDL wait (0), the sample's pick (1), the stream (2), finish_gathered's entry
(50), its counts exchange (51), the keys' exchange (52), the local digits (53), its end (54), the kernel's end (8).
Thread 0 of the first and last rank prints `id:cycles` for one-row launches."""
p = "csrc/cuda/topk.cu"
s = open(p).read()

def rep(old, new, count=1):
    global s
    assert s.count(old) == count, (old[:70], s.count(old))
    s = s.replace(old, new)

rep("""template <int kThreads, class G>
using SharedFor = Shared<kThreads, G::kClustered>;""", """template <int kThreads, class G>
using SharedFor = Shared<kThreads, G::kClustered>;

struct TdSeq {
  long long t[32];
  int id[32];
  int n;
};
__device__ __forceinline__ TdSeq& td_seq() {
  static __shared__ TdSeq q;
  return q;
}
__device__ __forceinline__ void td_mark(int i) {
  if (threadIdx.x == 0) {
    TdSeq& q = td_seq();
    if (q.n < 32) {
      q.t[q.n] = clock64();
      q.id[q.n] = i;
      ++q.n;
    }
  }
}""")
rep("""  extern __shared__ uint32_t gathered[];  // the front of dynamic shared memory (topk_kernel)
  const uint32_t lanes_below = (1u << (threadIdx.x % kWarp)) - 1u;""", """  extern __shared__ uint32_t gathered[];  // the front of dynamic shared memory (topk_kernel)
  td_mark(50);
  const uint32_t lanes_below = (1u << (threadIdx.x % kWarp)) - 1u;""")
rep("""  mbar_wait(&sh.counts_full, g.counts_phase & 1u);
  g.counts_phase ^= 1u;
  uint32_t above_lower = 0, first = 0, total = 0;""", """  mbar_wait(&sh.counts_full, g.counts_phase & 1u);
  td_mark(51);
  g.counts_phase ^= 1u;
  uint32_t above_lower = 0, first = 0, total = 0;""")
rep("""  mbar_wait(&sh.gather_full, g.counts_phase >> 1);""", """  mbar_wait(&sh.gather_full, g.counts_phase >> 1);
  td_mark(52);""")
rep("""  g.hist_offset = local.hist_offset;
""", """  g.hist_offset = local.hist_offset;
  td_mark(53);
""")
rep("""  ordered_write(walk, sel, above_lower + sh.gathered_below[0] + above_base, sh.gathered_below[1] + on_base, out);
  return g;""", """  ordered_write(walk, sel, above_lower + sh.gathered_below[0] + above_base, sh.gathered_below[1] + on_base, out);
  td_mark(54);
  return g;""")
rep("""  const uint32_t counted = pick_digit(0, sel, sh, g, WantSampleRank{k, len, here});""",
    """  const uint32_t counted = pick_digit(0, sel, sh, g, WantSampleRank{k, len, here});
  td_mark(1);""")
rep("""  // Each warp turns its stored values into keys, counting their first digit unless the sample""",
    """  td_mark(2);
  // Each warp turns its stored values into keys, counting their first digit unless the sample""")
rep("""  pdl_wait();
  for (int64_t r = blockIdx.x / g.size; r < p.rows; r += gridDim.x / g.size) {""", """  pdl_wait();
  if (threadIdx.x == 0) td_seq().n = 0;
  td_mark(0);
  for (int64_t r = blockIdx.x / g.size; r < p.rows; r += gridDim.x / g.size) {""")
rep("""  if constexpr (kClustered) {  // the others' last accesses to this block's shared memory
    if (g.start_pending) {
      cg::this_cluster().barrier_wait();
    } else {
      G::exit_sync();
    }
  }
}""", """  if constexpr (kClustered) {  // the others' last accesses to this block's shared memory
    if (g.start_pending) {
      cg::this_cluster().barrier_wait();
    } else {
      G::exit_sync();
    }
  }
  td_mark(8);
  if (kClustered && p.rows == 1 && threadIdx.x == 0 && (g.rank == 0 || g.rank + 1 == g.size)) {
    TdSeq& q = td_seq();
    char line[512];
    int o = 0;
    for (int i = 0; i < q.n && o < 480; ++i) {
      char tmp[24];
      int m = 0;
      long long v = q.t[i] - q.t[0];
      do { tmp[m++] = char('0' + v % 10); v /= 10; } while (v > 0 && m < 20);
      const int id = q.id[i];
      if (id >= 10) line[o++] = char('0' + id / 10);
      line[o++] = char('0' + id % 10);
      line[o++] = ':';
      while (m) line[o++] = tmp[--m];
      line[o++] = ' ';
    }
    line[o] = 0;
    printf("gt rank %u: %s\\n", g.rank, line);
  }
}""")
s = s.replace('#include <cub/block/block_scan.cuh>\n', '#include <cub/block/block_scan.cuh>\n#include <cstdio>\n', 1)
open(p, "w").write(s)
print("patched gt")
