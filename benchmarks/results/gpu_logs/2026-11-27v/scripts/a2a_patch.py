"""a2a (session 22, prepared): clusters of 4-8 blocks exchange each pick's histogram all-to-all by st.async instead of
remote adds and a cluster barrier (whose release waited on the adds: 9.4 % of a decode row's stall samples, the
barrier ~3 K cycles a pick). Each block packs its 2048 bins as 16-bit counts (a block's slice is below 65536 keys:
p.width <= 65535 x the cluster size, else the remote adds stay) and sends them, 8 bins a 16-byte st.async, into slot
[its rank] of every other block's receive buffer (2 buffers x 8 ranks x 4 KiB = 64 KiB of dynamic shared memory in front
of the candidates), completing that block's hist_full[buffer]; each block sums its own and the 7 received and picks as
before. The buffers alternate by pick as for clusters of 2 (a block sends into one again only after every other block
has sent its next histogram, which it does after reading the buffer)."""
p = "csrc/cuda/topk.cu"
s = open(p).read()

def rep(old, new, count=1):
    global s
    assert s.count(old) == count, (old[:80], s.count(old))
    s = s.replace(old, new)

rep("""constexpr int kMaxClusterBlocks = 8;  // the portable cluster size
""", """constexpr int kMaxClusterBlocks = 8;  // the portable cluster size
// a2a: each block's receive buffers for the all-to-all histograms, 16-bit bins in pairs: [2][ranks][bins / 2] words.
constexpr uint32_t kA2aWords = 2 * kMaxClusterBlocks * kTopkBins / 2;
""")
rep("""  bool start_pending = false;  // the kernel's first cluster barrier (RowGroup) is not yet waited on""",
    """  bool start_pending = false;  // the kernel's first cluster barrier (RowGroup) is not yet waited on
  bool a2a = false;  // pushes go all-to-all by st.async (slices below 65536 keys)""")
rep("""      } else {
        uint32_t* const sum = sh.sum + g.sum_offset;
        for (int b = threadIdx.x; b < kTopkBins; b += kThreads)""", """      } else if (g.a2a) {
        static_assert(S::kBinsPerThread == 2, "a2a: a thread's two bins are one received word");
        extern __shared__ uint32_t a2a_words[];  // the front of dynamic shared memory (topk_kernel)
        const uint32_t buf = g.sum_offset / kTopkBins;
        uint32_t* const recv = a2a_words + buf * (kMaxClusterBlocks * kTopkBins / 2);
        if (threadIdx.x == 0) mbar_arm(&sh.hist_full[buf], (g.size - 1) * kTopkBins * 2u);
        for (int q = threadIdx.x; q < kTopkBins / 8; q += kThreads) {
          const uint4 a = reinterpret_cast<const uint4*>(hist)[2 * q], b = reinterpret_cast<const uint4*>(hist)[2 * q + 1];
          const float4 w = make_float4(__uint_as_float(a.x | a.y << 16), __uint_as_float(a.z | a.w << 16),
                                       __uint_as_float(b.x | b.y << 16), __uint_as_float(b.z | b.w << 16));
          const uint32_t* const here = recv + g.rank * (kTopkBins / 2) + 4 * q;
          for (uint32_t r = 1; r < g.size; ++r) {
            const uint32_t to = (g.rank + r) % g.size;
            st_async(cluster_addr(here, to), w, cluster_addr(&sh.hist_full[buf], to));
          }
        }
        mbar_wait(&sh.hist_full[buf], (g.hist_phases >> buf) & 1u);
        g.hist_phases ^= 1u << buf;
        add_bins(hist);
        const uint32_t word = kTopkBins / 2 - 1 - threadIdx.x;  // bins 2046 - 2t (low half) and 2047 - 2t
        for (uint32_t r = 0; r < g.size; ++r) {
          if (r == g.rank) continue;
          const uint32_t v = recv[r * (kTopkBins / 2) + word];
          count[0] += v >> 16;
          count[1] += v & 0xffffu;
        }
      } else {
        uint32_t* const sum = sh.sum + g.sum_offset;
        for (int b = threadIdx.x; b < kTopkBins; b += kThreads)""")
rep("""  if constexpr (G::kClustered) {
    if (g.push()) {  // the next pushes into these sums come after the next barrier""",
    """  if constexpr (G::kClustered) {
    if (g.push() && !g.a2a) {  // the next pushes into these sums come after the next barrier""")
rep("""  extern __shared__ uint2 cand[];  // cand_cap entries {key, row index}""",
    """  // cand_cap entries {key, row index}; clustered, after the a2a receive buffers.
  extern __shared__ uint2 dynamic_words[];
  uint2* const cand = dynamic_words + (kClustered ? kA2aWords / 2 : 0);""")
rep("""    g.rank = cg::this_cluster().block_rank();
    g.size = cg::this_cluster().num_blocks();""", """    g.rank = cg::this_cluster().block_rank();
    g.size = cg::this_cluster().num_blocks();
    g.a2a = g.push() && p.width <= int64_t(65535) * g.size;""")
rep("""size_t cand_bytes(uint32_t cap) { return size_t(cap) * sizeof(uint2); }""",
    """size_t cand_bytes(uint32_t cap) { return size_t(cap) * sizeof(uint2); }
size_t dynamic_smem(uint32_t cap, bool clustered) {
  return cand_bytes(cap) + (clustered ? size_t(kA2aWords) * sizeof(uint32_t) : 0);
}""")
rep("""                                               int(cand_bytes(kMaxCandidates)));""",
    """                                               int(dynamic_smem(kMaxCandidates, kClustered)));""")
rep("""  const cudaLaunchConfig_t cfg = launch_config(grid, kThreads, cluster, cand_bytes(cap), s, attr);""",
    """  const cudaLaunchConfig_t cfg = launch_config(grid, kThreads, cluster, dynamic_smem(cap, kClustered), s, attr);""")
rep("""    return resident_clusters(device, g, cand_bytes(cand_cap((p.width + g - 1) / g, 1024, 1))) >= p.rows;""",
    """    return resident_clusters(device, g, dynamic_smem(cand_cap((p.width + g - 1) / g, 1024, 1), true)) >= p.rows;""")
open(p, "w").write(s)
print("patched a2a")
