"""cr (prepared in session 19, not measured): the pipeline kernel's prologue barrier arrives relaxed. Before it, thread 0
only initialises and arms the mbarriers; fence.mbarrier_init.release.cluster publishes the inits to the cluster and
the arms are mbarrier operations on the same objects (a remote complete_tx before the local expect_tx leaves the
tx-count transiently negative, which PTX allows), so the release of cluster.sync()'s arrive (an ERRBAR on every
warp, 6-12 % of a decode call's warp samples in session 19's Nsight Compute, call 5) orders nothing needed. Back
to back the prologue overlaps the previous call; after a kernel that does not trigger PDL it is on the path."""
p = "csrc/cuda/mhc_pipeline_kernel.cuh"
s = open(p).read()
old = """  cluster.sync();  // every CTA's barriers are initialised before anyone pushes
  // This CTA's fn slice"""
new = """  // Every CTA's barriers are initialised before anyone pushes. The inits' fence publishes them to the
  // cluster and nothing else before here needs ordering (the arms are mbarrier operations on the same
  // objects), so the arrive is relaxed: no memory barrier on every warp's path.
  asm volatile("barrier.cluster.arrive.relaxed;\\n\\tbarrier.cluster.wait;" ::: "memory");
  // This CTA's fn slice"""
assert s.count(old) == 1
s = s.replace(old, new)
open(p, "w").write(s)

# The TMA kernel's prologue barrier likewise: before it thread 0 initialises and arms mbarriers and zeroes the
# tf32 pairs' progress words, which only this CTA's warps read, after the __syncthreads() that follows the PDL wait.
p = "csrc/cuda/mhc_tma_kernel.cuh"
s = open(p).read()
old = """  cluster.sync();  // every CTA's barriers are initialised before anyone pushes
"""
new = """  // Every CTA's barriers are initialised before anyone pushes: their fence publishes them, so the arrive
  // is relaxed (the progress words are read only by this CTA, after the __syncthreads() below).
  asm volatile("barrier.cluster.arrive.relaxed;\\n\\tbarrier.cluster.wait;" ::: "memory");
"""
assert s.count(old) == 1
s = s.replace(old, new)
open(p, "w").write(s)
print("patched")
