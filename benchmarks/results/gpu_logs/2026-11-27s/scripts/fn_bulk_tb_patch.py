"""tb (prepared in session 19, not measured): the decode engines (kGlobalBf16, kGlobal: a cluster runs one tile) get
the CTA's fp32 fn slice by bulk copies (the TMA unit, one a row and stream, 1 KB at D = 4096, 1792 bytes at 7168),
issued by one owner warp before the PDL wait into the kTf32 engine's layout, complete on an mbarrier that each
worker waits for once its first tile's loads are issued; the projection reads fn from shared memory and splits it
per use as before (bf16 parts at D = 4096, tf32 at 7168). Session 19 found that fn loaded by the workers before the
wait (lf) wins back to back and loses after a kernel that does not trigger PDL, read as fn's 24-96 KB a CTA queued
in the LSU ahead of the tile's loads; here the tile's loads are issued first by the workers while the TMA unit
moves fn. Same chains: same bits. If landed, rename the engines (fn no longer comes from global memory per use)."""
p = "csrc/cuda/mhc_pipeline_kernel.cuh"
s = open(p).read()
def rep(old, new, n=1):
    global s
    assert s.count(old) == n, (s.count(old), old)
    s = s.replace(old, new)

# At the end of the struct: between weights_full and weights it would move every float4 / st.async v4 target off
# 16-byte alignment (a review before any run caught it).
rep("""  float warp_part[kMaxWorkers][kTile][kP];
};""", """  float warp_part[kMaxWorkers][kTile][kP];
  uint64_t fn_full;  // the decode engines: fn's slice copied (bulk copies before the PDL wait)
};""")

# split from values
rep("""__device__ __forceinline__ void split_bf16_parts(const float* src, uint4 (&parts)[3]) {
  float f[8] = {};
  if (src != nullptr) {
    const float4 lo4 = __ldg(reinterpret_cast<const float4*>(src));
    const float4 hi4 = __ldg(reinterpret_cast<const float4*>(src + 4));
    f[0] = lo4.x, f[1] = lo4.y, f[2] = lo4.z, f[3] = lo4.w, f[4] = hi4.x, f[5] = hi4.y, f[6] = hi4.z, f[7] = hi4.w;
  }
  uint32_t w[4][3];""", """__device__ __forceinline__ void split_bf16_parts(float4 lo4, float4 hi4, uint4 (&parts)[3]) {
  const float f[8] = {lo4.x, lo4.y, lo4.z, lo4.w, hi4.x, hi4.y, hi4.z, hi4.w};
  uint32_t w[4][3];""")

rep("""            } else {
              split_bf16_parts(m < kRows ? pp.fn + m * k_total + i * hidden + d : nullptr, parts);
            }""", """            } else {  // the decode engine: fp32 fn copied into the kTf32 layout, split here
              float4 lo4 = {}, hi4 = {};
              if (m < kRows) {
                const float* src = fn_s + m * fn_stride + i * d_slice + warp * kWarpD + 8 * c;
                lo4 = *reinterpret_cast<const float4*>(src);
                hi4 = *reinterpret_cast<const float4*>(src + 4);
              }
              split_bf16_parts(lo4, hi4, parts);
            }""")

rep("""              const float* src = E == Engine::kTf32 ? fn_s + m * fn_stride + i * d_slice + warp * kWarpD + 8 * c
                                                    : pp.fn + m * k_total + i * hidden + d;
              const float4 lo4 = E == Engine::kTf32 ? *reinterpret_cast<const float4*>(src)
                                                    : __ldg(reinterpret_cast<const float4*>(src));
              const float4 hi4 = E == Engine::kTf32 ? *reinterpret_cast<const float4*>(src + 4)
                                                    : __ldg(reinterpret_cast<const float4*>(src + 4));""",
"""              const float* src = fn_s + m * fn_stride + i * d_slice + warp * kWarpD + 8 * c;
              const float4 lo4 = *reinterpret_cast<const float4*>(src);
              const float4 hi4 = *reinterpret_cast<const float4*>(src + 4);""")

rep("""  const MhcPreParams& pp = p.pre;
  const int64_t hidden = pp.hidden, k_total = int64_t(kN) * hidden;
  const int d_slice = E == Engine::kBf16 ? kBf16Slice : int(hidden / csize);""",
"""  const MhcPreParams& pp = p.pre;
  const int64_t hidden = pp.hidden;
  const int d_slice = E == Engine::kBf16 ? kBf16Slice : int(hidden / csize);""")

# the wait, once the first tile's loads are issued
rep("""      TileLoad<M> cur;
      if constexpr (kPrefetch) {
        cur = next;
        if (j + 1 < ntiles) load_tile<M>(p, tm, tile + tile_step, d, g, next);
      } else {
        load_tile<M>(p, tm, tile, d, g, cur);
      }""", """      TileLoad<M> cur;
      constexpr bool kCopiedFn = E == Engine::kGlobal || E == Engine::kGlobalBf16;
      if constexpr (kPrefetch) {
        if (kCopiedFn && j == 0) mbar_wait(&sh.fn_full, 0);  // the first tile's loads are in flight
        cur = next;
        if (j + 1 < ntiles) load_tile<M>(p, tm, tile + tile_step, d, g, next);
      } else {
        load_tile<M>(p, tm, tile, d, g, cur);
        if (kCopiedFn && j == 0) mbar_wait(&sh.fn_full, 0);
      }""")

# init
rep("""    for (int s = 0; s < kRing; ++s) {
      mbar_init(&sh.partials_full[s]);
      mbar_init(&sh.weights_full[s]);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");""",
"""    for (int s = 0; s < kRing; ++s) {
      mbar_init(&sh.partials_full[s]);
      mbar_init(&sh.weights_full[s]);
    }
    mbar_init(&sh.fn_full);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");""")

# the copies, by the last (owner) warp, after the cluster barrier and before the PDL wait
rep("""  pdl_wait();  // before the first access to what the previous kernel wrote
  if constexpr (E == Engine::kTf32""",
"""  if constexpr (E == Engine::kGlobal || E == Engine::kGlobalBf16) {
    // fn's slice in the kTf32 layout, one bulk copy a row and stream, by the last warp (an owner, idle
    // until the first partials): fn is a weight (cuda_common.cuh), copied while the previous kernel runs.
    if (warp == int(blockDim.x / 32) - 1) {
      const int lane = threadIdx.x % 32;
      const uint32_t bytes = uint32_t(d_slice) * sizeof(float);
      if (lane == 0) mbar_arm(&sh.fn_full, uint32_t(kRows * kN) * bytes);
      __syncwarp();
      for (int q = lane; q < kRows * kN; q += 32) {
        const int m = q / kN, i = q % kN;
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(smem_u32(fn_s + m * fn_stride + i * d_slice)),
                     "l"(pp.fn + m * k_total + i * hidden + int64_t(rank) * d_slice), "r"(bytes),
                     "r"(smem_u32(&sh.fn_full))
                     : "memory");
      }
    }
  }
  pdl_wait();  // before the first access to what the previous kernel wrote
  if constexpr (E == Engine::kTf32""")

# The copying warp does not leave before its copies land (no worker waits when a CTA has no tile; run() never
# launches such a CTA, but its shared memory must not be written after it exits).
rep("""  if (warp >= workers)
    owner_loop<M, kNorm>(p, da, sh, tm, csize, rank, warp - workers, owners, cluster_id, clusters, ntiles);""",
"""  if (warp >= workers)
    owner_loop<M, kNorm>(p, da, sh, tm, csize, rank, warp - workers, owners, cluster_id, clusters, ntiles);
  if constexpr (E == Engine::kGlobal || E == Engine::kGlobalBf16) {
    if (warp == int(blockDim.x / 32) - 1) mbar_wait(&sh.fn_full, 0);
  }""")

# launcher
rep("""  const int64_t resident = max_clusters(streamed, sizeof(Sh), (streamed_workers + owners) * 32);""",
"""  const size_t streamed_smem = sizeof(Sh) + staged_bytes<M, Engine::kTf32>(d_slice);  // fn copied as fp32
  const int64_t resident = max_clusters(streamed, streamed_smem, (streamed_workers + owners) * 32);""")
rep("""  return resident > 0 ? run(streamed, sizeof(Sh), resident,""",
"""  return resident > 0 ? run(streamed, streamed_smem, resident,""")
open(p, "w").write(s)
print("patched")
