// wave.h's Amdgcn backend, executed on the HIP CPU runtime through the emulated amdgcn builtins
// (DPP, ds_swizzle, ds_bpermute, readlane, ballot, mbcnt), against the Emulated<64> backend that
// test_wave_collectives.cpp checks against serial answers: lane for lane equal, in waves that run
// the collectives while the workgroup's other waves do not.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "common/wave.h"
#include "wave_probe.h"

namespace dsv4::hip_cpu {
namespace {

constexpr int kWave = 64;
using E = wave::Emulated<kWave>;

// The Emulated<64> answers for one wave's inputs, in ProbeResult order.
std::vector<E::Val<uint32_t>> expected(const E::Val<uint32_t>& v) {
  E::Val<bool> odd;
  for (int i = 0; i < kWave; ++i) odd[i] = v[i] % 2 == 1;
  const uint64_t mask = E::ballot(odd);
  const auto count_below = wave::count_below<E>(odd);
  E::Val<uint32_t> below;
  for (int i = 0; i < kWave; ++i) below[i] = uint32_t(count_below[i]);
  return {E::xor_lane<1>(v), E::xor_lane<2>(v), E::xor_lane<4>(v), E::xor_lane<8>(v),
          E::xor_lane<16>(v), E::xor_lane<32>(v), E::up_in_row<1>(v, kProbeIdentity),
          E::up_in_row<2>(v, kProbeIdentity), E::up_in_row<4>(v, kProbeIdentity),
          E::up_in_row<8>(v, kProbeIdentity), E::carry<16>(v, kProbeIdentity),
          E::carry<32>(v, kProbeIdentity), E::splat(E::read_lane(v, 37)), E::splat(uint32_t(mask)),
          E::splat(uint32_t(mask >> 32)), below, E::splat(uint32_t(wave::count<E>(odd))), wave::sum<E>(v),
          wave::max<E>(v), wave::inclusive_sum<E, uint32_t>(v), wave::exclusive_sum<E, uint32_t>(v)};
}

TEST(HipCpuWave, AmdgcnBackendEqualsLaneEmulation) {
  std::mt19937 gen(4);
  for (uint32_t range : {2u, 1000u, 0xffffffffu}) {
    SCOPED_TRACE(range);
    std::vector<uint32_t> in(kProbeThreads), out(kProbeResults * kProbeThreads, 0);
    for (auto& x : in) x = range == 0xffffffffu ? uint32_t(gen()) : uint32_t(gen() % range);
    ASSERT_EQ(run_wave_probe(in.data(), out.data()), 0);
    for (int w = 0; w < kProbeThreads / kWave; ++w) {
      E::Val<uint32_t> v;
      for (int i = 0; i < kWave; ++i) v[i] = in[w * kWave + i];
      const auto want = expected(v);
      for (int r = 0; r < kProbeResults; ++r)
        for (int i = 0; i < kWave; ++i)
          ASSERT_EQ(out[r * kProbeThreads + w * kWave + i], w % 2 == 1 ? want[r][i] : 0u)
              << "result " << r << ", wave " << w << ", lane " << i;
    }
  }
}

}  // namespace
}  // namespace dsv4::hip_cpu
