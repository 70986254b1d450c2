"""a16 (session 23): on top of the all-to-all exchange (main's kA2a kernels), (1) a pick's sends spread over every
thread (256 16-byte words x (size - 1) ranks, flat over 1024 threads; before, 256 threads sent size - 1 each in
series) and (2) non-portable clusters of 16 (a row of >= 65536 keys on 16 SMs when at most 7 such rows: the stream of a
1 x 262144 row is ~7 us of its 20 on 8 SMs). Receive buffers 2 x 16 x 4 KiB = 128 KiB + 64 KiB of candidates."""
p = "csrc/cuda/topk.cu"
s = open(p).read()

def rep(old, new, count=1):
    global s
    assert s.count(old) == count, (old[:80], s.count(old))
    s = s.replace(old, new)

rep("constexpr int kMaxClusterBlocks = 8;  // the portable cluster size",
    "constexpr int kMaxClusterBlocks = 16;  // non-portable (cudaFuncAttributeNonPortableClusterSizeAllowed)")
rep("""        for (int q = threadIdx.x; q < kTopkBins / 8; q += kThreads) {
          const uint4 a = reinterpret_cast<const uint4*>(hist)[2 * q], b = reinterpret_cast<const uint4*>(hist)[2 * q + 1];
          const float4 w = make_float4(__uint_as_float(a.x | a.y << 16), __uint_as_float(a.z | a.w << 16),
                                       __uint_as_float(b.x | b.y << 16), __uint_as_float(b.z | b.w << 16));
          const uint32_t* const here = recv + g.rank * (kTopkBins / 2) + 4 * q;
          for (uint32_t r = 1; r < g.size; ++r) {
            const uint32_t to = (g.rank + r) % g.size;
            st_async(cluster_addr(here, to), w, cluster_addr(&sh.hist_full[buf], to));
          }
        }""", """        for (uint32_t i = threadIdx.x; i < (kTopkBins / 8) * (g.size - 1); i += kThreads) {
          const uint32_t q = i % (kTopkBins / 8), to = (g.rank + 1 + i / (kTopkBins / 8)) % g.size;
          const uint4 a = reinterpret_cast<const uint4*>(hist)[2 * q], b = reinterpret_cast<const uint4*>(hist)[2 * q + 1];
          const float4 w = make_float4(__uint_as_float(a.x | a.y << 16), __uint_as_float(a.z | a.w << 16),
                                       __uint_as_float(b.x | b.y << 16), __uint_as_float(b.z | b.w << 16));
          st_async(cluster_addr(recv + g.rank * (kTopkBins / 2) + 4 * q, to), w, cluster_addr(&sh.hist_full[buf], to));
        }""")
rep("""    const cudaError_t e = cudaFuncSetAttribute(topk_kernel<kThreads, kClustered, kBlocks, kTwoGroups, kA2a>,
                                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               int(dynamic_smem(kMaxCandidates, kA2a, kMaxClusterBlocks)));
    return int(e == cudaSuccess);""", """    const auto kernel = topk_kernel<kThreads, kClustered, kBlocks, kTwoGroups, kA2a>;
    cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         int(dynamic_smem(kMaxCandidates, kA2a, kMaxClusterBlocks)));
    if (e == cudaSuccess && kClustered) e = cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    return int(e == cudaSuccess);""")
open(p, "w").write(s)
print("patched a16")
