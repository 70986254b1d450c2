"""ne (session 23, prepared, not run: no device time left): clustered blocks skip the last cluster barrier before
exit. The trace of a3 (call 5) put it at ~1.0 K cycles of a 1 x 65536 row (~0.5 us of 10.7). The barrier keeps a
block's shared memory alive while others still access it; but every access another block makes to this block's
shared memory is a write this block waits for before it can finish its row: the picks' histograms (st.async into
the receive or sum buffers, an mbarrier per pick; the push path's remote adds land before the pick's cluster
barrier) and the ordered write's counts (st.async from the lower ranks, counts_full). Nothing is read remotely. A
block that never exchanged (rows with len <= k) still waits on the kernel's first cluster barrier, as before.
Risk to check before landing: the CUDA guide asks for a cluster sync before exit when distributed shared memory was
used; here every remote access into a block completes before that block's own waits return, and the sender's source
is registers. Validate with memcheck / racecheck / synccheck over race23_decode.py and the decode tests, then A/B
with s23_call14.sh (main's wheel as su, ne's as nb)."""
p = "csrc/cuda/topk.cu"
s = open(p).read()
old = """    if (g.start_pending) {
      cg::this_cluster().barrier_wait();
    } else {
      G::exit_sync();
    }"""
assert s.count(old) == 1
s = s.replace(old, """    if (g.start_pending) cg::this_cluster().barrier_wait();
    // Otherwise every remote write into this block's shared memory has been waited for.""")
open(p, "w").write(s)
print("patched ne")
