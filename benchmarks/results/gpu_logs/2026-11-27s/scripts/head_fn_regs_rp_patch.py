"""rp (experiment): the decode bf16 engine of the head ops (hc_head, the seam; D = 4096) loads each worker lane's fp32
fn values (row g of its 4 streams: 8 float4, rows >= 4 zero) into registers before the PDL wait; the projection
splits them from there instead of loading fn from L2 after the tile. No wait on them before the PDL wait, so a
call that does not overlap its predecessor has fn's and the tile's loads in flight together."""
p = "csrc/cuda/mhc_pipeline_kernel.cuh"
s = open(p).read()
def rep(old, new, n=1):
    global s
    assert s.count(old) == n, (s.count(old), old)
    s = s.replace(old, new)
rep("""// Staged fn slice: rows m < 8 * ceil(rows / 8)""",
"""// The head ops' decode bf16 engine: the lane's fp32 fn values (row g of the 4 streams, its 8 d), loaded
// before the PDL wait.
template <Mode M, Engine E>
constexpr bool fn_in_registers() { return E == Engine::kGlobalBf16 && is_head(M); }
template <Mode M, Engine E>
struct LaneFn {
  float4 v[fn_in_registers<M, E>() ? kN : 1][2];
};

// Staged fn slice: rows m < 8 * ceil(rows / 8)""")
rep("""__device__ __forceinline__ void worker_loop(const MhcFusedParams& p, Shared<M, kNorm>& sh, const float* fn_s,
                                            const TileMap& tm, int csize, int rank, int workers, int stages,
                                            int64_t first_tile, int64_t tile_step, int ntiles, bool identity) {""",
"""__device__ __forceinline__ void worker_loop(const MhcFusedParams& p, Shared<M, kNorm>& sh, const float* fn_s,
                                            const TileMap& tm, int csize, int rank, int workers, int stages,
                                            int64_t first_tile, int64_t tile_step, int ntiles, bool identity,
                                            const LaneFn<M, E>& lane_fn) {""")
rep("""            } else {
              split_bf16_parts(m < kRows ? pp.fn + m * k_total + i * hidden + d : nullptr, parts);
            }""",
"""            } else if constexpr (fn_in_registers<M, E>()) {
              uint32_t w[4][3];
              split3_bf16x2(lane_fn.v[i][0].x, lane_fn.v[i][0].y, w[0]);
              split3_bf16x2(lane_fn.v[i][0].z, lane_fn.v[i][0].w, w[1]);
              split3_bf16x2(lane_fn.v[i][1].x, lane_fn.v[i][1].y, w[2]);
              split3_bf16x2(lane_fn.v[i][1].z, lane_fn.v[i][1].w, w[3]);
#pragma unroll
              for (int part = 0; part < 3; ++part) parts[part] = make_uint4(w[0][part], w[1][part], w[2][part], w[3][part]);
            } else {
              split_bf16_parts(m < kRows ? pp.fn + m * k_total + i * hidden + d : nullptr, parts);
            }""")
rep("""  pdl_wait();  // before the first access to what the previous kernel wrote
  if constexpr (E == Engine::kTf32""",
"""  LaneFn<M, E> lane_fn;
  if constexpr (fn_in_registers<M, E>()) {
    const int lane = threadIdx.x % 32, g = lane / 4, c = lane % 4;
    const int64_t d = int64_t(rank) * d_slice + warp * kWarpD + 8 * c;
#pragma unroll
    for (int i = 0; i < kN; ++i) {
      const float4* src = reinterpret_cast<const float4*>(pp.fn + g * k_total + i * hidden + d);
      const bool real = warp < workers && g < kRows;
      lane_fn.v[i][0] = real ? __ldg(src) : float4{};
      lane_fn.v[i][1] = real ? __ldg(src + 1) : float4{};
    }
  }
  pdl_wait();  // before the first access to what the previous kernel wrote
  if constexpr (E == Engine::kTf32""")
rep("""ntiles, identity);""", """ntiles, identity, lane_fn);""", 3)
open(p, "w").write(s)
print("patched")
