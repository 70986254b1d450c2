// Fast path of mhc_pre / mhc_fused_post_pre / hc_head for hc_mult n = 4 on sm_90: the residual is
// read from HBM exactly once.
//
// A cluster of C CTAs (16, or 8 when D is not a multiple of 512) splits the hidden dim: CTA q owns
// d in [q*D/C, (q+1)*D/C) of all 4 streams, warp w of it 32 consecutive d, lane (g, c) = (lane/4,
// lane%4) 8 consecutive d of tokens g and g+8 of a 16-token tile. Each CTA keeps its slice of fn
// (24 rows x 4*D/C) in shared memory for the whole kernel (staged mode) or reads it from L2 (when
// the cluster runs a single tile, e.g. decode, or when that lets more clusters be resident). Per
// tile:
//   1. projection G = X fn^T on tensor cores: mma.m16n8k8 tf32 with fn split exactly into
//      hi + lo tf32 parts (X is bf16, exact in tf32, so products are exact and the result is an
//      fp32-accurate sum, not a TF32 one); the lane's k order is permuted so that it holds all 4
//      streams of its 8 d, which the collapse needs; sum of squares with FMAs;
//   2. fixed-order reduction: warps -> CTA partial in smem -> cluster.sync -> the CTA owning a
//      token sums the C partials over DSMEM in rank order, runs the mixes and a 16-lane Sinkhorn,
//      writes post/comb and broadcasts the 4 pre weights into every CTA's smem -> cluster.sync;
//   3. collapse from registers (plus the fused RMSNorm's Sigma y^2 through a second round).
// The fused op first applies mhc_post to the tile in registers, stores the bf16 residual_out and
// projects exactly those rounded values. mhc_post_hc_head (Mode::kPostHead) does the same with the
// head's 4 rows, stores the new streams only when streams_out is given, and applies the final
// RMSNorm to the bf16-rounded head output (its Sigma y^2 through the second round, from the rounded
// y). Reduction order depends only on D: batch-invariant.
#pragma once

#include <cooperative_groups.h>

#include <map>
#include <mutex>
#include <tuple>

#include "../common/mhc_math.h"
#include "../common/op_params.h"
#include "cuda_common.cuh"

namespace dsv4::cuda {

namespace cluster_mhc {

namespace cg = cooperative_groups;

enum class Mode { kPre, kFused, kHead, kPostHead };

// Modes that apply mhc_post to the tile first, and modes that project with the head's n rows.
constexpr bool has_post(Mode m) { return m == Mode::kFused || m == Mode::kPostHead; }
constexpr bool is_head(Mode m) { return m == Mode::kHead || m == Mode::kPostHead; }

constexpr int kN = 4;
constexpr int kTile = 16;   // tokens per tile: the mma M dimension
constexpr int kWarpD = 32;  // d per warp
constexpr int kMaxWarps = 14;  // 448 threads, 128 registers each (warps are allocated in fours)

template <Mode M>
constexpr int rows() {
  return is_head(M) ? kN : kN * (kN + 2);
}

static_assert(rows<Mode::kPre>() < 32, "owners hold one row per lane");

// Shared memory besides the staged fn slice.
template <Mode M>
struct alignas(16) Shared {
  float warp_part[kMaxWarps][kTile][rows<M>() + 1];  // per-warp G and S
  float part[kTile][rows<M>() + 1];                   // CTA partial, read by the owners over DSMEM
  float owner_sums[kTile][rows<M>() + 1];             // owner's cluster-wide sums
  float pre[kTile][kN];                               // written by the owners into every CTA
  float warp_ss[kMaxWarps][kTile];                    // fused RMSNorm: sum of y^2 per warp
  float ss_part[kTile];
  float norm_scale[kTile];                            // written by the owners into every CTA
};

__device__ __forceinline__ void mma_tf32(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                         uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// bf16 element e (0..7) of a 16-byte chunk as a tf32 operand (exact: the low 16 bits are zero).
__device__ __forceinline__ uint32_t tf32_of(const uint4& v, int e) {
  const uint32_t w = (&v.x)[e / 2];
  return (e & 1) ? (w & 0xffff0000u) : (w << 16);
}

__device__ __forceinline__ float f32_of(const uint4& v, int e) { return __uint_as_float(tf32_of(v, e)); }

// hi + lo = f exactly; hi has a tf32 mantissa, lo is what tf32 keeps of the rest (error 2^-24 |f|).
__device__ __forceinline__ void split_tf32(float f, uint32_t& hi, uint32_t& lo) {
  hi = __float_as_uint(f) & 0xffffe000u;
  lo = __float_as_uint(f - __uint_as_float(hi));
}

// A tile's global inputs for one lane: 2 tokens (g, g+8) x 4 streams x 8 d (+ the layer output x
// for the fused op). Loaded one tile ahead so HBM stays busy through the cluster barriers.
template <Mode M>
struct TileLoad {
  uint4 r[2][kN];
  uint4 x[has_post(M) ? 2 : 1];
};

template <Mode M>
__device__ __forceinline__ void load_tile(const MhcFusedParams& p, int64_t tile, int64_t d, int g,
                                          TileLoad<M>& in) {
  const int64_t hidden = p.pre.hidden;
  const bf16* residual = has_post(M) ? p.post.residual : p.pre.residual;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int64_t t = tile * kTile + g + 8 * h;
    const bool ok = t < p.pre.tokens;
#pragma unroll
    for (int i = 0; i < kN; ++i)
      in.r[h][i] = ok ? __ldg(reinterpret_cast<const uint4*>(residual + (t * kN + i) * hidden + d))
                      : make_uint4(0, 0, 0, 0);
    if constexpr (has_post(M))
      in.x[h] = ok ? __ldg(reinterpret_cast<const uint4*>(p.post.x + t * hidden + d)) : make_uint4(0, 0, 0, 0);
  }
}

// The post half on a lane's chunk: new[j] = bf16(post[j] x + sum_i comb[i][j] r[i]), stored as
// residual_out (kPostHead: as streams_out when given); the rounded values replace r (the pre or head
// half projects those).
template <Mode M>
__device__ __forceinline__ void apply_post(const MhcFusedParams& p, int64_t tile, int64_t d, int g,
                                           TileLoad<M>& in) {
  if constexpr (has_post(M)) {
    const int64_t hidden = p.pre.hidden;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int64_t t = tile * kTile + g + 8 * h;
      if (t >= p.pre.tokens) continue;
      const float* post = p.post.post_mix + t * kN;
      const float* comb = p.post.comb_mix + t * kN * kN;
      uint4 out[kN];
#pragma unroll
      for (int j = 0; j < kN; ++j) {
        const float pj = __ldg(post + j);
        float acc[8];
#pragma unroll
        for (int e = 0; e < 8; ++e) acc[e] = pj * f32_of(in.x[h], e);
#pragma unroll
        for (int i = 0; i < kN; ++i) {
          const float cij = __ldg(comb + i * kN + j);
#pragma unroll
          for (int e = 0; e < 8; ++e) acc[e] += cij * f32_of(in.r[h][i], e);
        }
        Bf16x8 packed;
#pragma unroll
        for (int e = 0; e < 8; ++e) packed.v[e] = to_bf16(acc[e]);
        out[j] = *reinterpret_cast<const uint4*>(&packed);
        if (M == Mode::kFused || p.post.out != nullptr)
          *reinterpret_cast<uint4*>(p.post.out + (t * kN + j) * hidden + d) = out[j];
      }
#pragma unroll
      for (int j = 0; j < kN; ++j) in.r[h][j] = out[j];
    }
  }
}

// Owner of one token: cluster-wide sums -> r, the n pre weights (returned, lanes 0..3) and, for
// mhc_pre, post and comb (16-lane Sinkhorn; lanes 16..31 mirror 0..15 and store nothing).
template <Mode M>
__device__ __forceinline__ float owner_mixes(const MhcPreParams& p, const float* sums, int64_t t, int lane) {
  const MhcPreScalars& s = p.scalars;
  const float r = rms_factor(sums[rows<M>()], int64_t(kN) * p.hidden, s.rms_eps);
  const int i = lane & 3;
  const bool valid = t < p.tokens;
  if constexpr (is_head(M)) {
    return sigmoid(sums[i] * r * p.hc_scale[0] + p.hc_base[i]) + s.hc_pre_eps;
  } else {
    const float pre = sigmoid(sums[i] * r * p.hc_scale[0] + p.hc_base[i]) + s.hc_pre_eps;
    const float post = s.hc_post_mult_value * sigmoid(sums[kN + i] * r * p.hc_scale[1] + p.hc_base[kN + i]);
    const int e = lane & 15;  // comb entry (row e/4, column e%4)
    float c = sums[2 * kN + e] * r * p.hc_scale[2] + p.hc_base[2 * kN + e];
    const auto row_sum = [](float v) {
      v += __shfl_xor_sync(0xffffffffu, v, 1);
      return v + __shfl_xor_sync(0xffffffffu, v, 2);
    };
    const auto col_sum = [](float v) {
      v += __shfl_xor_sync(0xffffffffu, v, 4);
      return v + __shfl_xor_sync(0xffffffffu, v, 8);
    };
    float mx = fmaxf(c, __shfl_xor_sync(0xffffffffu, c, 1));
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
    c = expf(c - mx);
    c = c / row_sum(c) + s.hc_sinkhorn_eps;
    c = c / (col_sum(c) + s.hc_sinkhorn_eps);
    for (int it = 1; it < s.sinkhorn_repeat; ++it) {
      c = c / (row_sum(c) + s.hc_sinkhorn_eps);
      c = c / (col_sum(c) + s.hc_sinkhorn_eps);
    }
    if (valid && lane < kN) p.post_mix[t * kN + lane] = post;
    if (valid && lane < kN * kN) p.comb_mix[t * kN * kN + lane] = c;
    return pre;
  }
}

// Sum of one shared-memory float over the cluster's CTAs, in rank order. All remote loads are
// issued before the adds, so the DSMEM latency is paid once, not csize times.
__device__ __forceinline__ float cluster_sum(cg::cluster_group& cluster, float* local, int csize) {
  float v[16];
#pragma unroll
  for (int q = 0; q < 16; ++q) v[q] = q < csize ? *cluster.map_shared_rank(local, q) : 0.0f;
  float sum = 0.0f;
#pragma unroll
  for (int q = 0; q < 16; ++q) sum += v[q];
  return sum;
}

template <Mode M, bool kStaged>
__global__ void __launch_bounds__(kMaxWarps * 32, 1) mhc_cluster_kernel(MhcFusedParams p) {
  constexpr int kRows = rows<M>();
  constexpr int kNTiles = (kRows + 7) / 8;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  Shared<M>& sh = *reinterpret_cast<Shared<M>*>(smem_raw);
  float* fn_s = reinterpret_cast<float*>(smem_raw + sizeof(Shared<M>));

  cg::cluster_group cluster = cg::this_cluster();
  const int csize = int(cluster.num_blocks()), rank = int(cluster.block_rank());
  const MhcPreParams& pp = p.pre;
  const int64_t hidden = pp.hidden, k_total = int64_t(kN) * hidden;
  const int d_slice = int(hidden / csize), fn_stride = kN * d_slice + 4;  // +4: conflict-free LDS.128
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, c = lane % 4;
  const int warps = blockDim.x / 32;
  const int64_t d = int64_t(rank) * d_slice + warp * kWarpD + 8 * c;  // the lane's 8 d

  if constexpr (kStaged) {  // this CTA's fn slice, once: rows x (4 streams x d_slice)
    const int per_row = kN * d_slice / 4;
    for (int q = threadIdx.x; q < kRows * per_row; q += blockDim.x) {
      const int m = q / per_row, rest = q % per_row, i = rest / (d_slice / 4), dl = rest % (d_slice / 4);
      const float4 v = __ldg(reinterpret_cast<const float4*>(pp.fn + m * k_total + i * hidden +
                                                            int64_t(rank) * d_slice) + dl);
      *reinterpret_cast<float4*>(fn_s + m * fn_stride + i * d_slice + 4 * dl) = v;
    }
    __syncthreads();
  }

  const int64_t tiles = (pp.tokens + kTile - 1) / kTile;
  const int64_t cluster_id = blockIdx.x / csize, clusters = gridDim.x / csize;
  TileLoad<M> next;
  if (cluster_id < tiles) load_tile<M>(p, cluster_id, d, g, next);
  for (int64_t tile = cluster_id; tile < tiles; tile += clusters) {
    TileLoad<M> cur = next;
    if (tile + clusters < tiles) load_tile<M>(p, tile + clusters, d, g, next);
    apply_post<M>(p, tile, d, g, cur);

    // 1. Projection (tensor cores) and sum of squares (FMAs).
    float acc[kNTiles][4] = {};
    float ss[2] = {0.0f, 0.0f};
#pragma unroll
    for (int i = 0; i < kN; ++i) {
#pragma unroll
      for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int e = 0; e < 8; ++e) ss[h] += f32_of(cur.r[h][i], e) * f32_of(cur.r[h][i], e);
#pragma unroll
      for (int nt = 0; nt < kNTiles; ++nt) {
        const int m = nt * 8 + g;
        float f[8];
        if (m < kRows) {
          const float* src = kStaged ? fn_s + m * fn_stride + i * d_slice + warp * kWarpD + 8 * c
                                     : pp.fn + m * k_total + i * hidden + d;
          const float4 lo4 = kStaged ? *reinterpret_cast<const float4*>(src)
                                     : __ldg(reinterpret_cast<const float4*>(src));
          const float4 hi4 = kStaged ? *reinterpret_cast<const float4*>(src + 4)
                                     : __ldg(reinterpret_cast<const float4*>(src + 4));
          f[0] = lo4.x, f[1] = lo4.y, f[2] = lo4.z, f[3] = lo4.w, f[4] = hi4.x, f[5] = hi4.y, f[6] = hi4.z,
          f[7] = hi4.w;
        } else {
#pragma unroll
          for (int e = 0; e < 8; ++e) f[e] = 0.0f;
        }
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          uint32_t b0h, b0l, b1h, b1l;
          split_tf32(f[2 * j], b0h, b0l);
          split_tf32(f[2 * j + 1], b1h, b1l);
          const uint32_t a0 = tf32_of(cur.r[0][i], 2 * j), a1 = tf32_of(cur.r[1][i], 2 * j);
          const uint32_t a2 = tf32_of(cur.r[0][i], 2 * j + 1), a3 = tf32_of(cur.r[1][i], 2 * j + 1);
          // Tensor cores truncate when they accumulate: each 16-product step starts from zero and
          // is added with a rounded fp32 add, so the truncation never compounds along k.
          float step[4] = {0.0f, 0.0f, 0.0f, 0.0f};
          mma_tf32(step, a0, a1, a2, a3, b0h, b1h);
          mma_tf32(step, a0, a1, a2, a3, b0l, b1l);
#pragma unroll
          for (int q = 0; q < 4; ++q) acc[nt][q] += step[q];
        }
      }
    }

    // 2. Reduce: lanes -> warp partials -> CTA partial.
#pragma unroll
    for (int nt = 0; nt < kNTiles; ++nt)
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const int row = nt * 8 + 2 * c + (q & 1), tok = g + 8 * (q >> 1);
        if (row < kRows) sh.warp_part[warp][tok][row] = acc[nt][q];
      }
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      ss[h] += __shfl_xor_sync(0xffffffffu, ss[h], 1);
      ss[h] += __shfl_xor_sync(0xffffffffu, ss[h], 2);
      if (c == 0) sh.warp_part[warp][g + 8 * h][kRows] = ss[h];
    }
    __syncthreads();
    for (int q = threadIdx.x; q < kTile * (kRows + 1); q += blockDim.x) {
      const int tok = q / (kRows + 1), row = q % (kRows + 1);
      float sum = 0.0f;
      for (int w = 0; w < warps; ++w) sum += sh.warp_part[w][tok][row];
      sh.part[tok][row] = sum;
    }
    cluster.sync();

    // Owners: token tok belongs to CTA tok % csize, handled by warp tok / csize.
    for (int tok = rank + warp * csize; tok < kTile; tok += warps * csize) {
      if (lane <= kRows) sh.owner_sums[tok][lane] = cluster_sum(cluster, &sh.part[tok][lane], csize);
      __syncwarp();
      const float w = owner_mixes<M>(pp, sh.owner_sums[tok], tile * kTile + tok, lane);
      if (lane < kN)
        for (int q = 0; q < csize; ++q) cluster.map_shared_rank(&sh.pre[0][0], q)[tok * kN + lane] = w;
    }
    cluster.sync();

    // 3. Collapse from registers: y = sum_i pre[i] x[i] for the lane's 2 tokens x 8 d.
    float y[2][8];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int tok = g + 8 * h;
#pragma unroll
      for (int e = 0; e < 8; ++e) y[h][e] = 0.0f;
#pragma unroll
      for (int i = 0; i < kN; ++i) {
        const float w = sh.pre[tok][i];
#pragma unroll
        for (int e = 0; e < 8; ++e) y[h][e] += w * f32_of(cur.r[h][i], e);
      }
    }
    const bf16* weight = M == Mode::kHead ? nullptr : pp.norm_weight;
    if (weight != nullptr) {  // fused RMSNorm: sum of y^2 per token over the whole cluster
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        if constexpr (M == Mode::kPostHead) {  // the final norm reads the stored (rounded) head output
#pragma unroll
          for (int e = 0; e < 8; ++e) y[h][e] = to_float(to_bf16(y[h][e]));
        }
        float s = 0.0f;
#pragma unroll
        for (int e = 0; e < 8; ++e) s += y[h][e] * y[h][e];
        s += __shfl_xor_sync(0xffffffffu, s, 1);
        s += __shfl_xor_sync(0xffffffffu, s, 2);
        if (c == 0) sh.warp_ss[warp][g + 8 * h] = s;
      }
      __syncthreads();
      if (threadIdx.x < kTile) {
        float s = 0.0f;
        for (int w = 0; w < warps; ++w) s += sh.warp_ss[w][threadIdx.x];
        sh.ss_part[threadIdx.x] = s;
      }
      cluster.sync();
      if (threadIdx.x < kTile && threadIdx.x % csize == unsigned(rank)) {
        const int tok = threadIdx.x;
        const float rs = rms_factor(cluster_sum(cluster, &sh.ss_part[tok], csize), hidden, pp.scalars.norm_eps);
        for (int q = 0; q < csize; ++q) cluster.map_shared_rank(&sh.norm_scale[0], q)[tok] = rs;
      }
      cluster.sync();
    }
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int tok = g + 8 * h;
      const int64_t t = tile * kTile + tok;
      if (t >= pp.tokens) continue;
      float out[8];
      if (weight != nullptr) {
        float wv[8];
        load_bf16x8(weight + d, wv);
        const float rs = sh.norm_scale[tok];
#pragma unroll
        for (int e = 0; e < 8; ++e) out[e] = to_float(to_bf16(y[h][e])) * rs * wv[e];
      } else {
#pragma unroll
        for (int e = 0; e < 8; ++e) out[e] = y[h][e];
      }
      store_bf16x8(pp.layer_input + t * hidden + d, out);
    }
  }
}

// Picks the cluster size for D (0: the fast path does not apply).
inline int cluster_size_for(int64_t hidden) {
  if (hidden % (16 * kWarpD) == 0 && hidden / 16 / kWarpD <= kMaxWarps) return 16;
  if (hidden % (8 * kWarpD) == 0 && hidden / 8 / kWarpD <= kMaxWarps) return 8;
  return 0;
}

// Launches the fast path; returns -1 when it does not apply (the caller then uses the general
// kernels), else a cudaError_t.
template <Mode M>
int launch(const MhcFusedParams& p, cudaStream_t stream) {
  const MhcPreParams& pp = p.pre;
  const int csize = pp.hc_mult == kN ? cluster_size_for(pp.hidden) : 0;
  if (csize == 0) return -1;
  const bf16* residual = has_post(M) ? p.post.residual : pp.residual;
  if (!aligned16(residual) || !aligned16(pp.fn) || !aligned16(pp.layer_input) ||
      (pp.norm_weight && M != Mode::kHead && !aligned16(pp.norm_weight)) ||
      (has_post(M) && (!aligned16(p.post.x) || !aligned16(p.post.out))))
    return -1;
  const int d_slice = int(pp.hidden / csize);
  const int threads = d_slice / kWarpD * 32;
  const size_t fn_bytes = size_t(rows<M>()) * (kN * d_slice + 4) * sizeof(float);
  const int64_t tiles = (pp.tokens + kTile - 1) / kTile;

  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return int(e);

  cudaLaunchAttribute attr;
  cudaLaunchConfig_t cfg = cluster_launch(unsigned(csize), unsigned(threads), unsigned(csize), 0, stream, attr);
  // Clusters that can be resident at once for a kernel variant and its shared memory (0: cannot
  // launch). The attribute calls and the occupancy query cost host time, so each (device,
  // variant, shape) asks once; the shared-memory opt-in is set to the device maximum so that a
  // later, smaller shape never lowers it under an earlier one.
  auto max_clusters = [&](auto kernel, bool staged, size_t smem) {
    static std::mutex mu;
    static std::map<std::tuple<int, bool, int, int, size_t>, int64_t> resident_cache;
    const std::lock_guard<std::mutex> lock(mu);
    const auto key = std::make_tuple(device, staged, csize, threads, smem);
    if (const auto it = resident_cache.find(key); it != resident_cache.end()) return it->second;
    int max_smem = 0, n = 0;
    cudaDeviceGetAttribute(&max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, max_smem);
    cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    cfg.dynamicSmemBytes = smem;
    if (smem > size_t(max_smem) || cudaOccupancyMaxActiveClusters(&n, kernel, &cfg) != cudaSuccess) n = 0;
    cudaGetLastError();  // a refused query is an answer (0), not an error of this launch
    return resident_cache[key] = int64_t(n);
  };
  auto run = [&](auto kernel, size_t smem, int64_t resident) {
    const int64_t clusters = tiles < resident ? tiles : resident;
    cfg.gridDim = dim3(unsigned(clusters * csize));
    cfg.dynamicSmemBytes = smem;
    return int(cudaLaunchKernelEx(&cfg, kernel, p));
  };
  // Stage fn in shared memory when each cluster runs several tiles, unless streaming it from L2
  // lets more clusters be resident: the kernel is bound by its per-tile chain of cluster
  // barriers, so tiles in flight count more than L2 traffic (H100, D = 4096: the staged slice
  // allows 1 CTA per SM, the streamed one 2, and mhc_pre at T = 16384 takes 1.12 ms instead of
  // 1.60; at D = 7168 both allow 1 and staging wins).
  const size_t staged_smem = sizeof(Shared<M>) + fn_bytes;
  const int64_t staged_resident = max_clusters(mhc_cluster_kernel<M, true>, true, staged_smem);
  const int64_t resident = max_clusters(mhc_cluster_kernel<M, false>, false, sizeof(Shared<M>));
  if (staged_resident > 0 && tiles > staged_resident && staged_resident >= resident)
    return run(mhc_cluster_kernel<M, true>, staged_smem, staged_resident);
  return resident > 0 ? run(mhc_cluster_kernel<M, false>, sizeof(Shared<M>), resident) : -1;
}

}  // namespace cluster_mhc

}  // namespace dsv4::cuda
