"""nb (session 23): pick_digit without its last block barrier. It kept the next writer of the scan storage and of
sel_* behind every reader of this pick's; but the next writers are the next pick's scan and selection, which come
after that pick's "histogram complete" barrier (and, between picks, clear_hist's barrier), by which every reader of
this pick's sel_* has read it. One block barrier fewer a pick, in every kernel that picks with a block scan."""
p = "csrc/cuda/topk.cu"
s = open(p).read()
old = """  const uint32_t total = sh.sel_total;
  // Scan storage and sel_* are rewritten next. Across the cluster no barrier (RowGroup).
  __syncthreads();
"""
assert s.count(old) == 1
s = s.replace(old, """  const uint32_t total = sh.sel_total;
  // The next writes of the scan storage and sel_* are the next pick's, after its histogram barrier
  // (every reader of these has read them by then). Across the cluster no barrier (RowGroup).
""")
open(p, "w").write(s)
print("patched nb")
