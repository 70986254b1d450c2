"""pre (session 22, prepared): a clustered decode row spent 3.7 K cycles from the PDL wait to its first load (td2,
call 2). Two pieces of that move: the first row's histogram is cleared before the PDL wait (with one block barrier
there, overlapping the previous kernel), and the slice bounds divide by the cluster size (a power of two) with a shift
instead of two 64-bit divisions (CALL __cuda_sm20_div_s64)."""
p = "csrc/cuda/topk.cu"
s = open(p).read()

def rep(old, new, count=1):
    global s
    assert s.count(old) == count, (old[:80], s.count(old))
    s = s.replace(old, new)

rep("""    if (g.push()) {
      clear_bins(sh.sum, kThreads);
      clear_bins(sh.sum + kTopkBins, kThreads);
    }
    cg::this_cluster().barrier_arrive();  // waited on before the first push or send (pick_digit)""",
    """    if (g.push()) {
      clear_bins(sh.sum, kThreads);
      clear_bins(sh.sum + kTopkBins, kThreads);
    }
    clear_bins(sh.hist + kTopkBins, kThreads);  // the first sample's histogram (select_row, start_pending)
    __syncthreads();
    cg::this_cluster().barrier_arrive();  // waited on before the first push or send (pick_digit)""")
rep("""  g.next_hist();
  uint32_t* hist = sh.hist + g.hist_offset;
  clear_hist(hist, kThreads);
  load(0);""", """  g.next_hist();
  uint32_t* hist = sh.hist + g.hist_offset;
  if constexpr (G::kClustered) {
    if (!g.start_pending) clear_hist(hist, kThreads);  // else cleared before the PDL wait (no pick yet)
  } else {
    clear_hist(hist, kThreads);
  }
  load(0);""")
rep("""      const int64_t s0 = len * g.rank / g.size, s1 = len * (g.rank + 1) / g.size;""",
    """      int64_t s0 = 0, s1 = len;
      if constexpr (kClustered) {  // the cluster size is a power of two
        const int shift = __ffs(int(g.size)) - 1;
        s0 = (len * g.rank) >> shift;
        s1 = (len * (g.rank + 1)) >> shift;
      }""")
open(p, "w").write(s)
print("patched pre")
