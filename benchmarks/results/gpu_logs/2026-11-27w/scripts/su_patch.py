"""su (session 23, on the working tree after so): the all-to-all receive loop unrolled over the cluster's 8 possible
ranks (predicated on rank < size and not this block) so that a thread's up to 7 received words load back to back
instead of one a loop trip."""
p = "csrc/cuda/topk.cu"
s = open(p).read()
old = """        for (uint32_t r = 0; r < g.size; ++r) {
          if (r == g.rank) continue;
          const uint32_t v = recv[r * (kTopkBins / 2) + word];"""
assert s.count(old) == 1
s = s.replace(old, """#pragma unroll
        for (uint32_t r = 0; r < uint32_t(kMaxClusterBlocks); ++r) {
          if (r >= g.size || r == g.rank) continue;
          const uint32_t v = recv[r * (kTopkBins / 2) + word];""")
open(p, "w").write(s)
print("patched su")
