// Small device helpers shared by the HIP kernels (CDNA3 gfx942, CDNA4 gfx950): arch traits, ids,
// barriers, 16-byte vector access, fixed-order block sums and scans on wave.h, the hc_mult
// dispatch and grid sizing. (Not named hip_common.h: HIP's own headers include
// <hip/hip_common.h>, which would resolve to this file whenever csrc/ is on the include path.)
//
// Kernels are compiled with -nogpulib (no ockl/ocml), so ids come from __builtin_amdgcn_* and never
// from HIP 5.2's threadIdx / blockIdx / blockDim / gridDim; block sizes are template constants.
//
// Per-target code objects: one build carries both launcher namespaces (the dispatcher picks one
// from gcnArchName at run time), so each kernel template is instantiated for Gfx942 and Gfx950 in
// every device pass. A kernel's body is guarded by `if constexpr (Arch::kThisTarget)`: it is
// emitted only in the device pass of its own target; elsewhere (the other target, the host pass)
// the kernel is an empty `s_endpgm` stub that is never launched. Each code object so holds one set
// of real kernels, tuned for its own LDS size and CU count. The host test build on the HIP CPU
// runtime (__HIP_CPU_RT__, tests/cpp/hip_cpu) runs both archs' bodies; for it, launches are
// spelled hipLaunchKernelGGL (in ROCm's headers the same <<<>>>), as host C++ has no <<<>>>.
#pragma once

#include <hip/hip_runtime.h>

#include <type_traits>

#include "../common/bf16.h"
#include "../common/mhc_math.h"
#include "../common/wave.h"

namespace dsv4::hip {

constexpr int kWave = 64;
using Wave = wave::Amdgcn;
static_assert(Wave::kWidth == kWave, "CDNA runs 64-lane wavefronts");

// MI300X (CDNA3): 64 KiB LDS per CU (and per workgroup), 304 CUs.
struct Gfx942 {
  static constexpr int kLdsBytes = 64 * 1024;
  static constexpr int kCus = 304;
#if defined(__gfx942__) || defined(__HIP_CPU_RT__)
  static constexpr bool kThisTarget = true;
#else
  static constexpr bool kThisTarget = false;
#endif
};

// MI355X (CDNA4): 160 KiB LDS per CU (and per workgroup), 256 CUs.
struct Gfx950 {
  static constexpr int kLdsBytes = 160 * 1024;
  static constexpr int kCus = 256;
#if defined(__gfx950__) || defined(__HIP_CPU_RT__)
  static constexpr bool kThisTarget = true;
#else
  static constexpr bool kThisTarget = false;
#endif
};

// The inline-asm constraint of a value kept in a VGPR; any register in the host test build.
#if defined(__HIP_CPU_RT__)
#define DSV4_VGPR "r"
#else
#define DSV4_VGPR "v"
#endif

__device__ __forceinline__ int thread_id() { return int(__builtin_amdgcn_workitem_id_x()); }
__device__ __forceinline__ int64_t block_id() { return int64_t(__builtin_amdgcn_workgroup_id_x()); }
template <int kThreads>
__device__ __forceinline__ int64_t block_count() {
  return int64_t(__builtin_amdgcn_grid_size_x() / kThreads);
}

// Workgroup barrier with LDS (and global) visibility, as __syncthreads without the HIP headers.
__device__ __forceinline__ void block_barrier() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// 16 bytes in one global_load_dwordx4 / global_store_dwordx4.
template <class T>
struct alignas(16) Vec16 {
  T v[16 / sizeof(T)];
};

__device__ __forceinline__ void load_bf16x8(const bf16* src, float (&out)[8]) {
  const Vec16<bf16> raw = *reinterpret_cast<const Vec16<bf16>*>(src);
#pragma unroll
  for (int j = 0; j < 8; ++j) out[j] = to_float(raw.v[j]);
}

__device__ __forceinline__ void store_bf16x8(bf16* dst, const float (&in)[8]) {
  Vec16<bf16> raw;
#pragma unroll
  for (int j = 0; j < 8; ++j) raw.v[j] = to_bf16(in[j]);
  *reinterpret_cast<Vec16<bf16>*>(dst) = raw;
}

inline bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; }

// Sums `kCount` per-thread values across the block into out[0..kCount) (LDS): a butterfly per
// wave, then the wave partials in wave order, so results depend only on the sizes. `scratch`
// holds kCount * kThreads / 64 floats. Ends with a barrier; every thread may read `out`.
template <int kCount, int kThreads>
__device__ __forceinline__ void block_sum(const float (&v)[kCount], float* scratch, float* out) {
  constexpr int kWaves = kThreads / kWave;
  const int lane = thread_id() % kWave, w = thread_id() / kWave;
#pragma unroll
  for (int m = 0; m < kCount; ++m) {
    const float s = wave::sum<Wave>(v[m]);
    if (lane == 0) scratch[m * kWaves + w] = s;
  }
  block_barrier();
  for (int m = thread_id(); m < kCount; m += kThreads) {
    float s = 0.0f;
    for (int i = 0; i < kWaves; ++i) s += scratch[m * kWaves + i];
    out[m] = s;
  }
  block_barrier();
}

// Exclusive prefix sum of one integer per thread over the block, in thread order; `*total` gets
// the block total. `scratch` holds kThreads / 64 values. Starts and ends with a barrier, so
// back-to-back calls may share `scratch`.
template <int kThreads, class T>
__device__ __forceinline__ T block_exclusive_sum(T v, T* scratch, T* total) {
  constexpr int kWaves = kThreads / kWave;
  const int lane = thread_id() % kWave, w = thread_id() / kWave;
  const T inc = wave::inclusive_sum<Wave, T>(v);
  block_barrier();
  if (lane == kWave - 1) scratch[w] = inc;
  block_barrier();
  T before = 0, all = 0;
#pragma unroll
  for (int i = 0; i < kWaves; ++i) {
    const T s = scratch[i];  // the same LDS word for the whole wave: one broadcast read
    before += i < w ? s : T(0);
    all += s;
  }
  *total = all;
  return before + inc - v;
}

// Calls f(std::integral_constant<int, n>{}) for the runtime hc_mult n in 1..kMaxHcMult.
template <int N = 1, class F>
int dispatch_hc_mult(int n, F&& f) {
  if constexpr (N <= kMaxHcMult) {
    return n == N ? f(std::integral_constant<int, N>{}) : dispatch_hc_mult<N + 1>(n, f);
  } else {
    return int(hipErrorInvalidValue);
  }
}

// Grid for a grid-stride loop over `items`, `per_block` per block pass, at most `per_cu` resident
// blocks per CU of the architecture (more would only queue behind them).
template <class Arch>
inline unsigned grid_for(int64_t items, int per_block, int per_cu) {
  const int64_t cap = int64_t(Arch::kCus) * per_cu;
  int64_t g = (items + per_block - 1) / per_block;
  if (g < 1) g = 1;
  return unsigned(g < cap ? g : cap);
}

}  // namespace dsv4::hip
