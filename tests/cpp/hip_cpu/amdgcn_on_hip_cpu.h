// The AMDGPU compiler environment of csrc/hip on the HIP CPU runtime (third_party/hip-cpu):
// force-included (-include) into every csrc/hip source of the DSV4EXT_HIP_CPU test build, so the
// kernels, their LDS layouts, barriers and launch configurations compile unchanged for the host.
//
// HIP-CPU runs a workgroup on one OS thread, one fiber per work-item (a 64-wide wave is 64
// consecutive fibers); a barrier hands control from each fiber to the next around the workgroup.
// Its own warp shuffles are such workgroup barriers, which is wrong for code where only some waves
// run a cross-lane op (ragged_pack's wave 0 scan). So the amdgcn builtins the kernels call (DPP,
// ds_swizzle, ds_bpermute, ballot, readlane, mbcnt) are emulated here on a barrier over the calling
// wave's 64 fibers only, each decoding the builtin's own control word: wave.h's Amdgcn backend runs
// as it ships, DPP and swizzle encodings included. A cross-lane op that some lanes of the wave do
// not reach aborts (every lane must take part, wave.h).
#pragma once

#include <hip/hip_runtime.h>  // HIP-CPU: defines __HIPCC__, __HIP_CPU_RT__, __shared__, threadIdx ...

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace dsv4::hip_cpu {

constexpr int kWave = 64;
constexpr int kMaxThreads = 1024;
static_assert(warpSize == kWave, "HIP-CPU runs 64-wide waves, as CDNA");

[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "HIP-CPU emulation: %s\n", what);
  std::abort();
}

inline int lane() { return int(threadIdx.x) % kWave; }  // the kernels launch 1-D workgroups

// Hands control to the next fiber of the calling wave (the last one to the first): once every
// lane has called it, every lane has run up to here. The workgroup's other waves do not move.
inline void wave_step() {
  using ::hip::detail::Fiber;
  using ::hip::detail::Tile;
  if (blockDim.x % kWave != 0) fail("workgroup size is not a multiple of the wave");
  const uint32_t f = id(Fiber::this_fiber());
  ::hip::detail::this_tile::has_barrier = true;  // HIP-CPU then resumes every fiber at the end
  Fiber::yield(Tile::fibers()[f % kWave == kWave - 1 ? f - (kWave - 1) : f + 1]);
}

// The 32-bit values one exchange of a wave posts, one per lane, and each poster's exchange count.
struct WaveSlots {
  uint32_t value[kWave];
  uint64_t op[kWave];
};

// Posts the calling lane's value and returns, once all 64 lanes of its wave have posted theirs,
// the slots holding them. Two slot sets per wave, alternating per exchange: a lane posts exchange
// k + 2 only after every lane has posted k + 1, so after it has read k.
inline const WaveSlots& post_and_wait(uint32_t v) {
  thread_local WaveSlots slots[kMaxThreads / kWave][2];
  thread_local uint64_t ops[kMaxThreads];
  const int t = int(threadIdx.x), l = t % kWave;
  const uint64_t op = ++ops[t];
  WaveSlots& s = slots[t / kWave][op & 1];
  s.value[l] = v;
  s.op[l] = op;
  wave_step();
  for (int i = 0; i < kWave; ++i)
    if (s.op[i] != op) fail("a cross-lane op is reached by some lanes of the wave only");
  return s;
}

// s_barrier on HIP-CPU's barrier, which hands control to the next fiber around the workgroup, so
// work-item t resumes before t + 1 does: at that point t + 1 must wait at this same barrier. One
// that reaches fewer or more barriers (a barrier under divergent control) aborts.
inline void s_barrier() {
  thread_local uint64_t passed[kMaxThreads];
  const uint32_t t = threadIdx.x;
  const uint64_t mine = ++passed[t];
  __syncthreads();
  if (t + 1 < blockDim.x && passed[t + 1] != mine) fail("work-items of a workgroup reach different barriers");
}

inline uint32_t from_lane(uint32_t v, int src) { return post_and_wait(v).value[src]; }

// v_mov_b32_dpp as LLVM's update_dpp: lanes outside row_mask / bank_mask keep `old`; the others
// read the lane the control word names, or get `old` (bound_ctrl off) where it names none.
// The controls the kernels use: quad_perm, row_shr:1..15, row_bcast:15, row_bcast:31.
inline int update_dpp(int old, int src, int ctrl, int row_mask, int bank_mask, bool bound_ctrl) {
  const int l = lane(), row = l / 16, in_row = l % 16;
  int from;
  if (ctrl <= 0xFF) {
    from = (l & ~3) | ((ctrl >> (2 * (l & 3))) & 3);
  } else if (ctrl > 0x110 && ctrl <= 0x11F) {
    from = in_row >= (ctrl & 0xF) ? l - (ctrl & 0xF) : -1;
  } else if (ctrl == 0x142) {
    from = row > 0 ? 16 * row - 1 : -1;
  } else if (ctrl == 0x143) {
    from = row >= 2 ? 31 : -1;
  } else {
    fail("DPP control not emulated");
  }
  const int got = int(from_lane(uint32_t(src), from < 0 ? l : from));
  if (!((row_mask >> row) & 1) || !((bank_mask >> (in_row / 4)) & 1)) return old;
  if (from < 0) return bound_ctrl ? 0 : old;
  return got;
}

// ds_swizzle_b32, bit-mask mode (offset bit 15 clear): within each 32 lanes, lane i reads lane
// ((i & and) | or) ^ xor.
inline int ds_swizzle(int src, int offset) {
  if (offset & 0x8000) fail("ds_swizzle quad-perm mode not emulated");
  const int l = lane(), and_mask = offset & 0x1F, or_mask = (offset >> 5) & 0x1F,
            xor_mask = (offset >> 10) & 0x1F;
  return int(from_lane(uint32_t(src), (l & ~31) | (((l & and_mask) | or_mask) ^ xor_mask)));
}

// ds_bpermute_b32: lane i reads lane (addr_i / 4) mod 64.
inline int ds_bpermute(int addr, int src) { return int(from_lane(uint32_t(src), (addr >> 2) & 63)); }

inline int readlane(int v, int src) { return int(from_lane(uint32_t(v), src)); }

inline uint64_t ballot_w64(bool pred) {
  const WaveSlots& s = post_and_wait(uint32_t(pred));
  uint64_t m = 0;
  for (int i = 0; i < kWave; ++i) m |= uint64_t(s.value[i]) << i;
  return m;
}

// v_mbcnt_lo / hi: acc + the set bits of the low / high half of the mask below this lane.
inline uint32_t mbcnt_lo(uint32_t mask, uint32_t acc) {
  const int l = lane();
  return acc + uint32_t(__builtin_popcount(mask & (l >= 32 ? ~0u : (1u << l) - 1)));
}
inline uint32_t mbcnt_hi(uint32_t mask, uint32_t acc) {
  const int l = lane();
  return acc + uint32_t(__builtin_popcount(mask & (l < 32 ? 0u : (1u << (l - 32)) - 1)));
}

// The device reads the first active lane. The kernels apply it to wave-uniform values only, some
// under lane-divergent branches where no exchange can be made, so it is the value itself here.
template <class T>
T readfirstlane(T v) {
  return v;
}

}  // namespace dsv4::hip_cpu

#define __builtin_amdgcn_workitem_id_x() threadIdx.x
#define __builtin_amdgcn_workgroup_id_x() blockIdx.x
#define __builtin_amdgcn_grid_size_x() (gridDim.x * blockDim.x)
#define __builtin_amdgcn_s_barrier ::dsv4::hip_cpu::s_barrier
// A workgroup runs on one OS thread, so a fence orders nothing more than program order does.
#define __builtin_amdgcn_fence(order, scope) std::atomic_thread_fence(std::memory_order_seq_cst)
#define __builtin_amdgcn_update_dpp ::dsv4::hip_cpu::update_dpp
#define __builtin_amdgcn_ds_swizzle ::dsv4::hip_cpu::ds_swizzle
#define __builtin_amdgcn_ds_bpermute ::dsv4::hip_cpu::ds_bpermute
#define __builtin_amdgcn_readlane ::dsv4::hip_cpu::readlane
#define __builtin_amdgcn_readfirstlane ::dsv4::hip_cpu::readfirstlane
#define __builtin_amdgcn_ballot_w64 ::dsv4::hip_cpu::ballot_w64
#define __builtin_amdgcn_mbcnt_lo ::dsv4::hip_cpu::mbcnt_lo
#define __builtin_amdgcn_mbcnt_hi ::dsv4::hip_cpu::mbcnt_hi
// clang knows __hip_atomic_* in C++ too but predefines the scopes only for HIP.
#define __HIP_MEMORY_SCOPE_WORKGROUP 3
// The occupancy hint is an AMDGPU kernel attribute; the host has nothing to tune.
#define amdgpu_waves_per_eu(...)
