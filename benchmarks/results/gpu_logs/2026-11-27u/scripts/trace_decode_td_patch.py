"""td (prepared in session 21, not run; timing diagnostics only): where a clustered top-k decode row's chain goes.
Thread 0 of every block stamps clock64 at each phase of its row (sample pick, stream, keys, each further digit, the
ordered write's counts, the writes) and prints the deltas from the kernel's PDL wait, once per call, for one-row
launches (decode 1 x W). Run with `trace_decode.py` (prints every block's line of the last call)."""
p = "csrc/cuda/topk.cu"
s = open(p).read()

def rep(old, new, count=1):
    global s
    assert s.count(old) == count, (old[:70], s.count(old))
    s = s.replace(old, new)

rep("""template <int kThreads, class G>
using SharedFor = Shared<kThreads, G::kClustered>;""", """template <int kThreads, class G>
using SharedFor = Shared<kThreads, G::kClustered>;

// td: per-block phase stamps (thread 0), printed at the kernel's end.
__device__ __forceinline__ long long& td_stamp(int i) {
  static __shared__ long long stamps[16];
  return stamps[i];
}
__device__ __forceinline__ void td_mark(int i) {
  if (threadIdx.x == 0) td_stamp(i) = clock64();
}""")
rep("""  const uint32_t counted = pick_digit(0, sel, sh, g, WantSampleRank{k, len, here});""",
    """  const uint32_t counted = pick_digit(0, sel, sh, g, WantSampleRank{k, len, here});
  td_mark(1);""")
rep("""  // Each warp turns its stored values into keys, counting their first digit unless the sample""",
    """  td_mark(2);
  // Each warp turns its stored values into keys, counting their first digit unless the sample""")
rep("""  if (exact) return finish_candidates(src, n, 1, sel, count, cand, seg_cap, out, sh, g);""",
    """  td_mark(3);
  if (exact) return finish_candidates(src, n, 1, sel, count, cand, seg_cap, out, sh, g);""")
rep("""    select_digit(walk, pass, sel, sh, g);
  uint32_t a, e;
  ordered_bases(walk, sel, a, e, sh, g);""", """  {
    select_digit(walk, pass, sel, sh, g);
    td_mark(3 + pass);  // 4, 5: after digits 1 and 2
  }
  uint32_t a, e;
  ordered_bases(walk, sel, a, e, sh, g);
  td_mark(6);""")
rep("""    if (gt || (eq && my_e < need)) out[topk_slot(a + __popc(b_gt & lanes_below), my_e, need)] = int32_t(i);
    a += __popc(b_gt);
    e += __popc(b_eq);
  });
}""", """    if (gt || (eq && my_e < need)) out[topk_slot(a + __popc(b_gt & lanes_below), my_e, need)] = int32_t(i);
    a += __popc(b_gt);
    e += __popc(b_eq);
  });
  td_mark(7);
}""")
rep("""  pdl_wait();
  for (int64_t r = blockIdx.x / g.size; r < p.rows; r += gridDim.x / g.size) {""", """  pdl_wait();
  if (threadIdx.x == 0)
    for (int i = 0; i < 16; ++i) td_stamp(i) = 0;
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
  if (kClustered && p.rows == 1 && threadIdx.x == 0) {
    const long long t0 = td_stamp(0);
    const auto d = [&](int i) { return td_stamp(i) ? td_stamp(i) - t0 : -1ll; };
    printf("td rank %u/%u cycles: sample-pick %lld stream %lld keys %lld digit1 %lld digit2 %lld bases %lld writes %lld exit %lld\\n",
           g.rank, g.size, d(1), d(2), d(3), d(4), d(5), d(6), d(7), d(8));
  }
}""")
s = s.replace('#include <cub/block/block_scan.cuh>\n', '#include <cub/block/block_scan.cuh>\n#include <cstdio>\n', 1)
open(p, "w").write(s)
print("patched")
