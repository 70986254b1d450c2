// The probe kernel of wave_probe.h, compiled like the csrc/hip sources (amdgcn_on_hip_cpu.h
// force-included) on cdna_common.h's Wave = wave::Amdgcn.
#include "wave_probe.h"

#include "hip/cdna_common.h"

namespace dsv4::hip_cpu {
namespace {

using hip::Wave;

__global__ void wave_probe_kernel(const uint32_t* in, uint32_t* out) {
  const int t = hip::thread_id(), w = t / kWave;
  auto put = [&](ProbeResult r, uint32_t v) { out[r * kProbeThreads + t] = v; };
  if (w % 2 == 1) {
    const uint32_t v = in[t];
    put(kXor1, Wave::xor_lane<1>(v));
    put(kXor2, Wave::xor_lane<2>(v));
    put(kXor4, Wave::xor_lane<4>(v));
    put(kXor8, Wave::xor_lane<8>(v));
    put(kXor16, Wave::xor_lane<16>(v));
    put(kXor32, Wave::xor_lane<32>(v));
    put(kUp1, Wave::up_in_row<1>(v, kProbeIdentity));
    put(kUp2, Wave::up_in_row<2>(v, kProbeIdentity));
    put(kUp4, Wave::up_in_row<4>(v, kProbeIdentity));
    put(kUp8, Wave::up_in_row<8>(v, kProbeIdentity));
    put(kCarry16, Wave::carry<16>(v, kProbeIdentity));
    put(kCarry32, Wave::carry<32>(v, kProbeIdentity));
    put(kReadLane37, Wave::read_lane(v, 37));
    const uint64_t odd = Wave::ballot(v % 2 == 1);
    put(kBallotLo, uint32_t(odd));
    put(kBallotHi, uint32_t(odd >> 32));
    put(kCountBelow, uint32_t(wave::count_below<Wave>(v % 2 == 1)));
    put(kCount, uint32_t(wave::count<Wave>(v % 2 == 1)));
    put(kSum, wave::sum<Wave>(v));
    put(kMax, wave::max<Wave>(v));
    put(kInclusiveSum, wave::inclusive_sum<Wave, uint32_t>(v));
    put(kExclusiveSum, wave::exclusive_sum<Wave, uint32_t>(v));
  }
  hip::block_barrier();
}

}  // namespace

int run_wave_probe(const uint32_t* in, uint32_t* out) {
  hipLaunchKernelGGL(wave_probe_kernel, 1, kProbeThreads, 0, nullptr, in, out);
  const hipError_t err = hipGetLastError();
  return int(err != hipSuccess ? err : hipDeviceSynchronize());
}

}  // namespace dsv4::hip_cpu
