// mhc_post on CDNA (§3.6): out[j, d] = bf16(post[j] * x[d] + sum_i comb[i, j] * R[i, d]), comb
// applied transposed (i, the first index, is the source stream). Also the chunk access helpers and
// the post math shared with the fused op (mhc_pre_kernel.h).
//
// Decomposition: a wave owns one (token, segment) item, a segment being 64 chunks of the token's
// hidden dim, a chunk 8 consecutive d (16-byte loads and stores) or 1 d when D % 8 != 0 or a
// pointer is unaligned. Lane l handles chunk 64 * segment + l of all n streams: it reads x and the
// n source rows once and writes the n destination rows once, so every output element is stored by
// exactly one lane. The token is wave-uniform, so its post and comb rows come through scalar loads
// into SGPRs, shared by the 64 lanes.
#pragma once

#include "cdna_common.h"  // first: the HIP runtime headers define what compat.h's DSV4_HD uses

#include "../common/op_params.h"

namespace dsv4::hip {

template <class T>
using Global = __attribute__((address_space(1))) T;
typedef uint32_t Word4 __attribute__((ext_vector_type(4)));
typedef float Float4 __attribute__((ext_vector_type(4)));

// A wave-uniform pointer, pinned to an SGPR pair by readfirstlane, which the optimiser cannot see
// through. Every global access below is such a base plus a per-lane 32-bit byte offset: left to
// itself the optimiser folds the lane part into one 64-bit per-lane pointer per (row, stream),
// strength-reduced across the loops, and those VGPR pairs spill to scratch.
template <class T>
__device__ __forceinline__ T* pin(T* uniform) {
  const uint64_t b = reinterpret_cast<uint64_t>(uniform);
  const uint32_t lo = __builtin_amdgcn_readfirstlane(uint32_t(b));
  const uint32_t hi = __builtin_amdgcn_readfirstlane(uint32_t(b >> 32));
  return reinterpret_cast<T*>(uint64_t(hi) << 32 | lo);
}

// The global-address-space pointer to base[lane] (elements of T) for a wave-uniform `base`.
template <class U, class T>
__device__ __forceinline__ Global<U>* at_lane(T* base, uint32_t lane) {
  return (Global<U>*)((Global<char>*)pin(base) + lane * uint32_t(sizeof(T)));
}

// kW consecutive bf16 of one stream, as stored: 16 bytes (one dwordx4) as four words of two bf16
// in the vector path, else one bf16. Kept packed where values wait in registers (half the VGPRs).
template <int kW>
struct Chunk;

template <>
struct Chunk<8> {
  uint32_t w[4];  // element 2k in the low half of w[k], 2k + 1 in the high half
};

template <>
struct Chunk<1> {
  uint16_t bits;
};

template <int kW>
__device__ __forceinline__ Chunk<kW> load_raw(const bf16* base, uint32_t lane) {
  Chunk<kW> c;
  if constexpr (kW == 8) {
    const Word4 w = *at_lane<const Word4>(base, lane);
#pragma unroll
    for (int k = 0; k < 4; ++k) c.w[k] = w[k];
  } else {
    c.bits = *at_lane<const uint16_t>(base, lane);
  }
  return c;
}

template <int kW>
__device__ __forceinline__ void store_raw(bf16* base, uint32_t lane, const Chunk<kW>& c) {
  if constexpr (kW == 8) {
    *at_lane<Word4>(base, lane) = Word4{c.w[0], c.w[1], c.w[2], c.w[3]};
  } else {
    *at_lane<uint16_t>(base, lane) = c.bits;
  }
}

// kW consecutive fp32 (two dwordx4 in the vector path).
template <int kW>
__device__ __forceinline__ void load_f32(const float* base, uint32_t lane, float (&v)[kW]) {
  if constexpr (kW == 8) {
    Global<const Float4>* q = at_lane<const Float4>(base, lane);
    const Float4 lo = q[0], hi = q[1];
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      v[e] = lo[e];
      v[4 + e] = hi[e];
    }
  } else {
    v[0] = *at_lane<const float>(base, lane);
  }
}

// Exact upcast (to_float of each bf16: its bits in the top half of an fp32).
template <int kW>
__device__ __forceinline__ void unpack(const Chunk<kW>& c, float (&v)[kW]) {
  if constexpr (kW == 8) {
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      v[2 * k] = bits_to_float(c.w[k] << 16);
      v[2 * k + 1] = bits_to_float(c.w[k] & 0xffff0000u);
    }
  } else {
    v[0] = to_float(bf16{c.bits});
  }
}

// One round to nearest even per value (to_bf16).
template <int kW>
__device__ __forceinline__ Chunk<kW> pack(const float (&v)[kW]) {
  Chunk<kW> c;
  if constexpr (kW == 8) {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      c.w[k] = uint32_t(to_bf16(v[2 * k]).bits) | uint32_t(to_bf16(v[2 * k + 1]).bits) << 16;
  } else {
    c.bits = to_bf16(v[0]).bits;
  }
  return c;
}

// The same packed values, as far as the optimiser knows new ones: unpacking them again per output
// stream keeps one stream's fp32 values live at a time, not all n.
template <int kW>
__device__ __forceinline__ Chunk<kW> opaque(Chunk<kW> c) {
  if constexpr (kW == 8) {
#pragma unroll
    for (int k = 0; k < 4; ++k) asm("" : "+" DSV4_VGPR(c.w[k]));
  } else {
    asm("" : "+" DSV4_VGPR(c.bits));
  }
  return c;
}

// A read-only fp32 value at a wave-uniform address. The constant address space tells the compiler
// no store of this kernel can clobber it, so it becomes an s_load into an SGPR, not 64 lanes of a
// vector load.
__device__ __forceinline__ float uniform_load(const float* p) {
  return *(const __attribute__((address_space(4))) float*)p;  // only a C-style cast spells it
}

// §3.6 for one chunk of token t: `d0` is the wave-uniform part of the chunk's first d, `lane` the
// lane's part. Calls emit(j, out_j) with destination stream j's fp32, unrounded values, summed in
// the CPU's order (post term, then sources i = 0..n-1). The n source chunks are read once and
// wait packed.
template <int N, int kW, class Emit>
__device__ __forceinline__ void post_chunk(const MhcPostParams& p, int64_t t, int64_t d0,
                                           uint32_t lane, Emit&& emit) {
  const int64_t hidden = p.hidden;
  const Chunk<kW> x = load_raw<kW>(p.x + t * hidden + d0, lane);
  Chunk<kW> r[N];
#pragma unroll
  for (int i = 0; i < N; ++i) r[i] = load_raw<kW>(p.residual + (t * N + i) * hidden + d0, lane);
#pragma unroll
  for (int j = 0; j < N; ++j) {
    float out[kW], v[kW];
    const float pj = uniform_load(p.post_mix + t * N + j);
    unpack<kW>(opaque<kW>(x), v);
#pragma unroll
    for (int e = 0; e < kW; ++e) out[e] = pj * v[e];
#pragma unroll
    for (int i = 0; i < N; ++i) {
      const float c = uniform_load(p.comb_mix + (t * N + i) * N + j);
      unpack<kW>(opaque<kW>(r[i]), v);
#pragma unroll
      for (int e = 0; e < kW; ++e) out[e] += c * v[e];
    }
    emit(j, out);
  }
}

// Destination stream j of §3.6 for one chunk, rounded once (the stored value): the same sum in the
// same order as post_chunk's emit(j, ...), for kernels that hold one stream at a time. Reads x and the
// n sources (from cache after the first stream).
template <int N, int kW>
__device__ __forceinline__ Chunk<kW> post_stream(const MhcPostParams& p, int64_t t, int64_t d0, uint32_t lane,
                                                 int j) {
  const int64_t hidden = p.hidden;
  float out[kW], v[kW];
  const float pj = uniform_load(p.post_mix + t * N + j);
  unpack<kW>(load_raw<kW>(p.x + t * hidden + d0, lane), v);
#pragma unroll
  for (int e = 0; e < kW; ++e) out[e] = pj * v[e];
#pragma unroll
  for (int i = 0; i < N; ++i) {
    const float c = uniform_load(p.comb_mix + (t * N + i) * N + j);
    unpack<kW>(load_raw<kW>(p.residual + (t * N + i) * hidden + d0, lane), v);
#pragma unroll
    for (int e = 0; e < kW; ++e) out[e] += c * v[e];
  }
  return pack<kW>(out);
}

constexpr int kPostThreads = 256;  // 4 waves: one per SIMD of a CU

// Waves per SIMD the compiler must keep: 8 (the CDNA maximum, 64 VGPRs) up to n = 4; 5 beyond,
// where the n destination rows of a 16-byte chunk take up to ~92 VGPRs.
template <int N>
constexpr int kPostWavesPerSimd = N <= 4 ? 8 : 5;

template <class Arch, int N, bool kVec>
__global__ void __launch_bounds__(kPostThreads)
__attribute__((amdgpu_waves_per_eu(kPostWavesPerSimd<N>))) mhc_post_kernel(MhcPostParams p) {
  if constexpr (Arch::kThisTarget) {
    constexpr int kW = kVec ? 8 : 1;
    constexpr int kWaves = kPostThreads / kWave;
    const int64_t chunks = p.hidden / kW;  // kVec: hidden % 8 == 0
    const int64_t segments = (chunks + kWave - 1) / kWave;
    const int64_t items = p.tokens * segments;
    const uint32_t lane = uint32_t(thread_id() % kWave);
    // readfirstlane makes the wave index (and so the item, the token and its row bases) scalar.
    const int wave = __builtin_amdgcn_readfirstlane(thread_id() / kWave);
    for (int64_t item = block_id() * kWaves + wave; item < items;
         item += block_count<kPostThreads>() * kWaves) {
      const int64_t t = item / segments;
      const int64_t c0 = (item - t * segments) * kWave;
      if (c0 + lane < chunks) {
        post_chunk<N, kW>(p, t, c0 * kW, lane * kW, [&](int j, const float (&out)[kW]) {
          store_raw<kW>(p.out + (t * N + j) * p.hidden + c0 * kW, lane * kW, pack<kW>(out));
        });
      }
    }
  }
}

template <class Arch>
int launch_mhc_post(const MhcPostParams& p, hipStream_t stream) {
  const bool vec = p.hidden % 8 == 0 && aligned16(p.x) && aligned16(p.residual) && aligned16(p.out);
  const int64_t chunks = vec ? p.hidden / 8 : p.hidden;
  const int64_t items = p.tokens * ((chunks + kWave - 1) / kWave);
  return dispatch_hc_mult(p.hc_mult, [&](auto n) {
    constexpr int N = decltype(n)::value;
    // One resident round of 4-wave workgroups: the grid-stride split never waits for a second.
    const unsigned grid = grid_for<Arch>(items, kPostThreads / kWave, kPostWavesPerSimd<N>);
    if (vec) {
      hipLaunchKernelGGL((mhc_post_kernel<Arch, N, true>), grid, kPostThreads, 0, stream, p);
    } else {
      hipLaunchKernelGGL((mhc_post_kernel<Arch, N, false>), grid, kPostThreads, 0, stream, p);
    }
    return int(hipGetLastError());
  });
}

}  // namespace dsv4::hip
