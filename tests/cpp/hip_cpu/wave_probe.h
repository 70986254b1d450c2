// A probe of wave.h's Amdgcn backend on the HIP CPU runtime: one 256-thread workgroup where the odd
// waves (1 and 3) run every primitive and collective on their lanes' inputs while the even waves
// wait at the workgroup barrier after them, as ragged_pack's wave 0 scan does.
#pragma once

#include <cstdint>

namespace dsv4::hip_cpu {

constexpr int kProbeThreads = 256;

// One row of kProbeThreads per result; rows of the even waves stay 0.
enum ProbeResult {
  kXor1, kXor2, kXor4, kXor8, kXor16, kXor32,  // xor_lane<M>
  kUp1, kUp2, kUp4, kUp8,                      // up_in_row<D>(v, kProbeIdentity)
  kCarry16, kCarry32,                          // carry<S>(v, kProbeIdentity)
  kReadLane37, kBallotLo, kBallotHi,           // read_lane(v, 37); ballot(v odd)
  kCountBelow, kCount,                         // count_below / count of (v odd)
  kSum, kMax, kInclusiveSum, kExclusiveSum,
  kProbeResults
};
constexpr uint32_t kProbeIdentity = 7;

// out: kProbeResults * kProbeThreads values. Returns a hipError_t (0 = ok) after synchronising.
int run_wave_probe(const uint32_t* in, uint32_t* out);

}  // namespace dsv4::hip_cpu
