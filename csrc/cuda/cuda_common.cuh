// Small device helpers shared by the CUDA kernels: 16-byte bf16 loads, warp/block sums with a
// fixed order (so results depend only on the sizes), and the hc_mult -> template dispatch.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <type_traits>

#include "../common/bf16.h"

namespace dsv4::cuda {

constexpr int kWarp = 32;

// 8 bf16 values <-> 16 bytes.
struct alignas(16) Bf16x8 {
  bf16 v[8];
};

__device__ __forceinline__ void load_bf16x8(const bf16* src, float (&out)[8]) {
  const Bf16x8 raw = *reinterpret_cast<const Bf16x8*>(src);
#pragma unroll
  for (int j = 0; j < 8; ++j) out[j] = to_float(raw.v[j]);
}

// Two fp32 -> bf16 (round to nearest even) in one cvt, bit-identical to to_bf16: the hardware
// conversion gives the canonical NaN, so a NaN input takes to_bf16's quiet NaN with its sign.
__device__ __forceinline__ uint32_t pack_bf16x2(float lo, float hi) {
  uint32_t r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  if (lo != lo) r = (r & 0xffff0000u) | (__float_as_uint(lo) >> 16) | 0x40u;
  if (hi != hi) r = (r & 0x0000ffffu) | (((__float_as_uint(hi) >> 16) | 0x40u) << 16);
  return r;
}

// to_float(to_bf16(v)), the same bits.
__device__ __forceinline__ float round_bf16(float v) { return __uint_as_float(pack_bf16x2(0.0f, v) & 0xffff0000u); }

// The plain conversion of pack_bf16x2, for values known not to be NaN.
__device__ __forceinline__ uint32_t cvt_bf16x2(float lo, float hi) {
  uint32_t r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  return r;
}

// pack_bf16x2's bits; its NaN fix-ups (~4 instructions a value) only when one of the 8 is a NaN, found by one
// predicate chain (the ring collapse's stage spent 64 of its 296 instructions on them; session 32, H100: the D = 7168
// TMA ops 1.5-5 % faster, mhc_pre 2994 -> 2901 us at T = 65536).
__device__ __forceinline__ void store_bf16x8(bf16* dst, const float (&in)[8]) {
  bool nan = false;
#pragma unroll
  for (int e = 0; e < 8; ++e) nan |= in[e] != in[e];
  uint4 raw;
  if (__builtin_expect(nan, 0)) {
    raw.x = pack_bf16x2(in[0], in[1]);
    raw.y = pack_bf16x2(in[2], in[3]);
    raw.z = pack_bf16x2(in[4], in[5]);
    raw.w = pack_bf16x2(in[6], in[7]);
  } else {
    raw.x = cvt_bf16x2(in[0], in[1]);
    raw.y = cvt_bf16x2(in[2], in[3]);
    raw.z = cvt_bf16x2(in[4], in[5]);
    raw.w = cvt_bf16x2(in[6], in[7]);
  }
  *reinterpret_cast<uint4*>(dst) = raw;
}

// round_bf16 of 8 values in place, the same bits: two values a plain cvt, and round_bf16's NaN fix-ups only when one
// of the 8 is a NaN (as store_bf16x8). The fused norm's rounding of the collapse (collapse8<true>, hc_head's norm).
__device__ __forceinline__ void round_bf16x8(float (&v)[8]) {
  bool nan = false;
#pragma unroll
  for (int e = 0; e < 8; ++e) nan |= v[e] != v[e];
  if (__builtin_expect(nan, 0)) {
#pragma unroll
    for (int e = 0; e < 8; ++e) v[e] = round_bf16(v[e]);
  } else {
#pragma unroll
    for (int e = 0; e < 8; e += 2) {
      const uint32_t r = cvt_bf16x2(v[e], v[e + 1]);
      v[e] = __uint_as_float(r << 16);
      v[e + 1] = __uint_as_float(r & 0xffff0000u);
    }
  }
}

// Inclusive prefix sum over the warp's lanes (integers: exact in any order).
template <class T>
__device__ __forceinline__ T warp_inclusive_sum(T v, int lane) {
#pragma unroll
  for (int o = 1; o < kWarp; o *= 2) {
    const T up = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o) v += up;
  }
  return v;
}

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = kWarp / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// Sums `count` per-thread values across the block into out[0..count) (shared memory). `scratch`
// holds count * (blockDim.x / 32) floats. Ends with a barrier; every thread may read `out`.
template <int kCount>
__device__ __forceinline__ void block_sum(const float (&v)[kCount], float* scratch, float* out) {
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp, warps = blockDim.x / kWarp;
#pragma unroll
  for (int m = 0; m < kCount; ++m) {
    const float s = warp_sum(v[m]);
    if (lane == 0) scratch[m * warps + warp] = s;
  }
  __syncthreads();
  for (int m = threadIdx.x; m < kCount; m += blockDim.x) {
    float s = 0.0f;
    for (int w = 0; w < warps; ++w) s += scratch[m * warps + w];
    out[m] = s;
  }
  __syncthreads();
}

__host__ __device__ inline bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; }

// Calls f(std::integral_constant<int, N>{}) for the runtime hc_mult n in 1..8.
template <class F>
int dispatch_hc_mult(int n, F&& f) {
  switch (n) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 5: return f(std::integral_constant<int, 5>{});
    case 6: return f(std::integral_constant<int, 6>{});
    case 7: return f(std::integral_constant<int, 7>{});
    case 8: return f(std::integral_constant<int, 8>{});
    default: return int(cudaErrorInvalidValue);
  }
}

// A value per device that never changes (an attribute, a one-time setup), computed on first use
// by query(device); 0 means failure and is not cached, so the next call asks again.
class PerDevice {
 public:
  template <class Query>
  int get(int device, Query query) {
    if (device < 0 || device >= kMaxDevices) return query(device);
    int v = values_[device].load(std::memory_order_relaxed);
    if (v == 0) {
      v = query(device);
      if (v != 0) values_[device].store(v, std::memory_order_relaxed);
    }
    return v;
  }

 private:
  static constexpr int kMaxDevices = 64;
  std::atomic<int> values_[kMaxDevices] = {};
};

// Programmatic dependent launch (PDL, sm_90): a kernel launched with launch_config's attribute may
// start while the kernel before it in the stream finishes. Such a kernel calls pdl_begin() before its
// first global memory access: it lets the next PDL launch start (that kernel still waits in its own
// pdl_begin), then waits until the previous kernel has completed and its writes are visible. So a
// chain of short kernels (decode calls, CUDA-graph replays) overlaps each launch with the previous
// kernel's tail; the results are those of ordinary stream order. Launched without the attribute (or
// after a kernel without it) the wait returns at once.
// A kernel with a prologue that touches only shared memory and its own cluster (barrier inits,
// cluster barriers, histogram clears) runs it between the two halves, pdl_trigger() and pdl_wait(),
// so that the prologue too overlaps the previous kernel; every thread still waits before its first
// access to anything a kernel may have written. Weights are the exception: the mHC kernels stage fn
// (and the final norm's weights) before their wait, which assumes that no kernel still running then
// (one that triggered early: ours, or another PDL kernel just before) writes them. Ours never do, and
// weights are written by loaders, not by the kernels of a forward pass (docs/ops.md).
__device__ __forceinline__ void pdl_trigger() { asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory"); }
__device__ __forceinline__ void pdl_wait() { asm volatile("griddepcontrol.wait;\n" ::: "memory"); }
__device__ __forceinline__ void pdl_begin() {
  pdl_trigger();
  pdl_wait();
}

// cudaLaunchKernelEx attributes: PDL, and a 1-D cluster dimension when cluster > 0. Must outlive the
// launch.
struct LaunchAttrs {
  cudaLaunchAttribute a[2];
};

// A launch of `grid` blocks of `block` threads, with PDL, in 1-D thread-block clusters of `cluster`
// blocks (0: no cluster).
inline cudaLaunchConfig_t launch_config(unsigned grid, unsigned block, unsigned cluster, size_t smem,
                                        cudaStream_t stream, LaunchAttrs& attrs) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(block);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cfg.attrs = attrs.a;
  attrs.a[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attrs.a[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.numAttrs = 1;
  if (cluster > 0) {
    attrs.a[1].id = cudaLaunchAttributeClusterDimension;
    attrs.a[1].val.clusterDim.x = cluster;
    attrs.a[1].val.clusterDim.y = 1;
    attrs.a[1].val.clusterDim.z = 1;
    cfg.numAttrs = 2;
  }
  return cfg;
}

// ---- Distributed shared memory and mbarriers (sm_90 clusters) ----
// Shared-memory addresses as 32-bit operands: this CTA's, and the same offset in CTA `rank` of the
// cluster.
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ uint32_t cluster_addr(const void* p, uint32_t rank) {
  uint32_t out;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(out) : "r"(smem_u32(p)), "r"(rank));
  return out;
}
__device__ __forceinline__ void mbar_init(uint64_t* bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(bar)) : "memory");
}
// The one local arrival of a phase, plus the bytes the phase waits for.
__device__ __forceinline__ void mbar_arm(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(bar)), "r"(bytes)
               : "memory");
}
// CTA-scope acquire: the waited-for bytes are this CTA's shared memory, made visible by the
// st.async complete_tx (release at cluster scope); a cluster-scope acquire would also invalidate L1
// (CCTL.IVALL) on every poll, which profiled as the kernel's top stall.
// kHintNs: how long a waiting warp may stay suspended per poll (the mHC pipeline's owners, which wait
// most of the time and would otherwise take issue slots from its workers); 0: the default.
template <uint32_t kHintNs = 0>
__device__ __forceinline__ void mbar_wait(uint64_t* bar, uint32_t parity) {
  uint32_t done;
  do {
    if constexpr (kHintNs > 0) {
      asm volatile(
          "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3;\n"
          " selp.u32 %0, 1, 0, p;\n}\n"
          : "=r"(done)
          : "r"(smem_u32(bar)), "r"(parity), "n"(kHintNs)
          : "memory");
    } else {
      asm volatile(
          "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
          " selp.u32 %0, 1, 0, p;\n}\n"
          : "=r"(done)
          : "r"(smem_u32(bar)), "r"(parity)
          : "memory");
    }
  } while (!done);
}
// An mbarrier whose phase completes after `count` local arrivals (mbar_init: one), and one arrival.
__device__ __forceinline__ void mbar_init_count(uint64_t* bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(bar)) : "memory");
}
// Words into CTA shared memory elsewhere in the cluster; the bytes complete that CTA's mbarrier at
// remote_bar (a phase armed with mbar_arm for them): four floats, two floats, one float, two 32-bit words.
__device__ __forceinline__ void st_async(uint32_t remote, float4 v, uint32_t remote_bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.f32 [%0], {%1, %2, %3, %4}, [%5];" ::"r"(
                   remote),
               "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w), "r"(remote_bar)
               : "memory");
}
__device__ __forceinline__ void st_async_v2(uint32_t remote, float a, float b, uint32_t remote_bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f32 [%0], {%1, %2}, [%3];" ::"r"(remote),
               "f"(a), "f"(b), "r"(remote_bar)
               : "memory");
}
__device__ __forceinline__ void st_async_f32(uint32_t remote, float a, uint32_t remote_bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];" ::"r"(remote),
               "r"(__float_as_uint(a)), "r"(remote_bar)
               : "memory");
}
__device__ __forceinline__ void st_async_u32x2(uint32_t remote, uint32_t a, uint32_t b, uint32_t remote_bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%0], {%1, %2}, [%3];" ::"r"(remote),
               "r"(a), "r"(b), "r"(remote_bar)
               : "memory");
}

// Grid size for a grid-stride loop over `items` with `per_block` items per block pass.
inline unsigned grid_for(int64_t items, int per_block, int64_t cap = 65535LL * 32) {
  int64_t g = (items + per_block - 1) / per_block;
  if (g < 1) g = 1;
  return unsigned(g < cap ? g : cap);
}

}  // namespace dsv4::cuda
