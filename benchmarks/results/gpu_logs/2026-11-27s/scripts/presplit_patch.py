"""ps (experiment): the D = 4096 decode engine (kGlobalBf16) splits fn before the PDL wait: each worker lane loads the
fn values its projection uses, splits them into the three bf16 parts and keeps them in its own shared-memory slots
(no barrier: a lane reads back only what it wrote); the projection reads the parts from there instead of loading
and splitting fn from L2 per use on the decode chain. Same parts, same chains: same bits."""
p = "csrc/cuda/mhc_pipeline_kernel.cuh"
s = open(p).read()
def rep(old, new, n=1):
    global s
    assert s.count(old) == n, (s.count(old), old)
    s = s.replace(old, new)

# staged_bytes: the decode bf16 engine's pre-split parts (every stage: 4 streams x row tiles x 3 parts x 32 lanes).
rep("""  return E == Engine::kGlobal || E == Engine::kGlobalBf16 ? 0""",
    """  return E == Engine::kGlobal ? 0
         : E == Engine::kGlobalBf16 ? size_t(d_slice / kWarpD) * kN * kRowsPad / 8 * 3 * 32 * sizeof(uint4)""")

# The pre-split itself, after split_bf16_parts.
rep("""// Staged fn slice: rows m < 8 * ceil(rows / 8)""",
    """// The decode bf16 engine's fn parts, split before the PDL wait (fn is a weight): the lane's 8 d of every stream
// and of rows nt * 8 + g for row blocks nt in [kNt0, kNt1), at slot ((stage * 4 + i) * row blocks + nt) * 3 + part,
// lane. Only the lane that wrote a slot reads it (the projection): no barrier.
template <Mode M, int kNt0, int kNt1>
__device__ __forceinline__ void presplit_fn(const MhcPreParams& pp, uint4* fnp, int rank, int d_slice, int stage) {
  constexpr int kRows = proj_rows<M>(), kNTiles = (kRows + 7) / 8;
  const int lane = threadIdx.x % 32, g = lane / 4, c = lane % 4;
  const int64_t hidden = pp.hidden, k_total = int64_t(kN) * hidden;
  const int64_t d = int64_t(rank) * d_slice + stage * 32 + 8 * c;
#pragma unroll
  for (int nt = kNt0; nt < kNt1; ++nt) {
    const int m = nt * 8 + g;
#pragma unroll
    for (int i = 0; i < kN; ++i) {
      uint4 parts[3];
      split_bf16_parts(m < kRows ? pp.fn + m * k_total + i * hidden + d : nullptr, parts);
#pragma unroll
      for (int part = 0; part < 3; ++part) fnp[(((stage * kN + i) * kNTiles + nt) * 3 + part) * 32 + lane] = parts[part];
    }
  }
}

// Staged fn slice: rows m < 8 * ceil(rows / 8)""")

# The projection reads them.
rep("""            } else {
              split_bf16_parts(m < kRows ? pp.fn + m * k_total + i * hidden + d : nullptr, parts);
            }""",
    """            } else {
              const uint4* fnp = reinterpret_cast<const uint4*>(fn_s);
#pragma unroll
              for (int part = 0; part < 3; ++part) parts[part] = fnp[(((warp * kN + i) * kNTiles + nt) * 3 + part) * 32 + lane];
            }""")

# The kernel: split before the PDL wait.
rep("""  pdl_wait();  // before the first access to what the previous kernel wrote
  if constexpr (E == Engine::kTf32""",
    """  if constexpr (E == Engine::kGlobalBf16) {
    constexpr int kNT = (kRows + 7) / 8;
    uint4* fnp = reinterpret_cast<uint4*>(fn_s);
    if constexpr (kWarps == kSplitWarps) {
      const int stages = workers / 2;
      if (warp < stages)
        presplit_fn<M, 0, 1>(pp, fnp, rank, d_slice, warp);
      else if (warp < workers)
        presplit_fn<M, 1, kNT>(pp, fnp, rank, d_slice, warp - stages);
    } else if (warp < workers) {
      presplit_fn<M, 0, kNT>(pp, fnp, rank, d_slice, warp);
    }
  }
  pdl_wait();  // before the first access to what the previous kernel wrote
  if constexpr (E == Engine::kTf32""")

# The launcher: the streamed kernel's shared memory.
rep("""  const int64_t resident = max_clusters(streamed, sizeof(Sh), (streamed_workers + owners) * 32);""",
    """  const size_t streamed_smem = sizeof(Sh) + (staged_bf16 ? staged_bytes<M, Engine::kGlobalBf16>(d_slice) : 0);
  const int64_t resident = max_clusters(streamed, streamed_smem, (streamed_workers + owners) * 32);""")
rep("""  return resident > 0 ? run(streamed, sizeof(Sh), resident,""",
    """  return resident > 0 ? run(streamed, streamed_smem, resident,""")
open(p, "w").write(s)
print("patched")
