"""el (session 24): a row's sample loads issued before its histogram is cleared. select_row cleared the histogram and
passed a block barrier before its first global load, so the first load's latency (L2 or HBM) followed the barrier;
issued first, the loads are in flight while the block clears and meets at the barrier (nothing orders them: they
read global memory only). Session 23's trace put 3.9-6.0 K cycles between a decode row's PDL wait and its first
load."""
p = "csrc/cuda/topk.cu"
s = open(p).read()
old = """  g.next_hist();
  uint32_t* hist = sh.hist + g.hist_offset;
  clear_hist(hist, kThreads);
  load(0);
  if (kPrefetch > 0 && col_stride == 1)  // the next groups come in while the sample is picked
    for (uint32_t d = 1; d <= kPrefetch; ++d) prefetch_group<kStream>(slice, n, first, steps, d * kStream);
"""
assert s.count(old) == 1
s = s.replace(old, """  // Its loads first: in flight while the histogram is cleared and the block meets at the barrier.
  load(0);
  if (kPrefetch > 0 && col_stride == 1)  // the next groups come in while the sample is picked
    for (uint32_t d = 1; d <= kPrefetch; ++d) prefetch_group<kStream>(slice, n, first, steps, d * kStream);
  g.next_hist();
  uint32_t* hist = sh.hist + g.hist_offset;
  clear_hist(hist, kThreads);
""")
open(p, "w").write(s)
print("patched el")
