// The HIP mHC launchers (gfx942 and gfx950 variants) executed on the HIP CPU runtime, against the
// CPU launchers. mhc_post and the fused ops' residual_out sum in the CPU's order, so they must be
// bitwise equal; mhc_pre / the fused pre half / hc_head reduce in their own fixed block order,
// so they are held to the ulp limits the CUDA launchers are. Sinkhorn is the same per-matrix code:
// bitwise. Shapes: n in {1, 3, 4, 8}; odd D (the 1-element chunk path) and D % 8 == 0 (16-byte
// chunks), D past one 256-chunk pass and one 64-chunk post segment; T with partial token tiles
// and, in the last cases, more tiles / items than the grid (the grid-stride loop) on both archs.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "cpu/cpu_ops.h"
#include "hip_cpu_launchers.h"
#include "launcher_compare.h"
#include "test_util.h"

namespace dsv4::test {
namespace {

using hip_cpu::Launchers;

struct MhcCase {
  int n;
  int64_t hidden, tokens;
  bool norm;
};

// Inputs and outputs of one case; the outputs guarded, preset to NaN.
struct MhcRun {
  int n;
  int64_t hidden, tokens;
  std::vector<bf16> residual, x, weight;
  std::vector<float> fn, scale, base, post_in, comb_in;
  Guarded<bf16> res_out, layer_input;
  Guarded<float> post, comb;
  MhcPreScalars scalars{1e-6f, 1e-6f, 1e-6f, 2.0f, 20, 1e-6f};

  explicit MhcRun(const MhcCase& c)
      : n(c.n), hidden(c.hidden), tokens(c.tokens),
        residual(to_bf16_vec(normal_floats(size_t(c.tokens * c.n * c.hidden), 1))),
        x(to_bf16_vec(normal_floats(size_t(c.tokens * c.hidden), 2))),
        weight(to_bf16_vec(normal_floats(size_t(c.hidden), 6))),
        fn(normal_floats(size_t(c.n * (c.n + 2) * c.n * c.hidden), 3, 1.0f / std::sqrt(float(c.n * c.hidden)))),
        scale(normal_floats(3, 4, 0.5f)),
        base(normal_floats(size_t(c.n * (c.n + 2)), 5, 0.5f)),
        res_out(size_t(c.tokens * c.n * c.hidden)),
        layer_input(size_t(c.tokens * c.hidden)),
        post(size_t(c.tokens * c.n)),
        comb(size_t(c.tokens * c.n * c.n)) {
    for (int64_t i = 0; i < tokens * n; ++i) post_in.push_back(0.5f + 0.01f * float(i % 97));
    for (int64_t i = 0; i < tokens * n * n; ++i) comb_in.push_back(0.02f * float(i % 53));
  }

  MhcPostParams post_params(bf16* out) const {
    return {x.data(), residual.data(), post_in.data(), comb_in.data(), out, tokens, n, hidden};
  }
  MhcPreParams pre_params(const bf16* res, const bf16* norm_weight, float* post_mix, float* comb_mix,
                          bf16* li) const {
    return {res, fn.data(), scale.data(), base.data(), norm_weight, post_mix, comb_mix, li, tokens, n, hidden,
            scalars};
  }
  // The HIP side's outputs.
  MhcPreParams hip_pre(const bf16* res, bool norm) {
    return pre_params(res, norm ? weight.data() : nullptr, post.ptr(), comb.ptr(), layer_input.ptr());
  }

  void expect_guards_intact() const {
    EXPECT_TRUE(res_out.guards_intact() && layer_input.guards_intact() && post.guards_intact() &&
                comb.guards_intact())
        << "a launcher wrote past an output's extent";
  }
};

struct CpuPre {
  std::vector<float> post, comb;
  std::vector<bf16> layer_input;
};

CpuPre cpu_pre(const MhcRun& r, const bf16* res, bool norm, bool head) {
  CpuPre o{std::vector<float>(size_t(r.tokens * r.n)), std::vector<float>(size_t(r.tokens * r.n * r.n)),
           std::vector<bf16>(size_t(r.tokens * r.hidden))};
  const MhcPreParams p = r.pre_params(res, norm ? r.weight.data() : nullptr, o.post.data(), o.comb.data(),
                                      o.layer_input.data());
  head ? cpu::hc_head(p, kSerial) : cpu::mhc_pre(p, kSerial);
  return o;
}

// The HIP pre outputs in `r` against the CPU's, within the CUDA launchers' limits.
void expect_pre_near(const MhcRun& r, const CpuPre& want, bool norm) {
  expect_float_near(r.post.body(), want.post, 2e-5f);
  expect_float_near(r.comb.body(), want.comb, 2e-5f);
  expect_bf16_near(r.layer_input.body(), want.layer_input, norm ? 3.0f : 2.0f);
}

class HipCpuMhc : public ::testing::TestWithParam<std::tuple<Launchers, MhcCase>> {};

TEST_P(HipCpuMhc, PreMatchesCpu) {
  const auto& [hip, c] = GetParam();
  MhcRun r(c);
  ASSERT_EQ(hip.mhc_pre(r.hip_pre(r.residual.data(), c.norm), nullptr), 0);
  ASSERT_EQ(hip_cpu::synchronize(), 0);
  const CpuPre want = cpu_pre(r, r.residual.data(), c.norm, false);
  expect_pre_near(r, want, c.norm);
  r.expect_guards_intact();
}

// mhc_pre_delayed's entries: identity (stream 0: bitwise without the norm), carried (pre_mix), and
// broadcast (x projected with fn's first D columns as a [M3, D] matrix); new_pre as the mixes.
TEST_P(HipCpuMhc, PreDelayedMatchesCpu) {
  const auto& [hip, c] = GetParam();
  MhcRun r(c);
  std::vector<float> pre_mix(size_t(c.tokens * c.n));
  for (size_t i = 0; i < pre_mix.size(); ++i) pre_mix[i] = 0.25f + 0.01f * float(i % 89);
  for (int entry = 0; entry < 3; ++entry) {
    SCOPED_TRACE(::testing::Message() << "entry " << entry);
    Guarded<float> new_pre(size_t(c.tokens * c.n));
    MhcPreDelayedParams p{r.hip_pre(r.residual.data(), c.norm), entry == 2 ? r.x.data() : nullptr,
                          entry == 1 ? pre_mix.data() : nullptr, new_pre.ptr()};
    ASSERT_EQ(hip.mhc_pre_delayed(p, nullptr), 0);
    ASSERT_EQ(hip_cpu::synchronize(), 0);
    CpuPre want{std::vector<float>(size_t(c.tokens * c.n)), std::vector<float>(size_t(c.tokens * c.n * c.n)),
                std::vector<bf16>(size_t(c.tokens * c.hidden))};
    std::vector<float> want_pre(size_t(c.tokens * c.n));
    MhcPreDelayedParams cp = p;
    cp.pre = r.pre_params(r.residual.data(), p.pre.norm_weight, want.post.data(), want.comb.data(),
                          want.layer_input.data());
    cp.new_pre = want_pre.data();
    cpu::mhc_pre_delayed(cp, kSerial);
    expect_pre_near(r, want, c.norm);
    expect_float_near(new_pre.body(), want_pre, 2e-5f);
    if (entry != 1 && !c.norm) EXPECT_TRUE(same_bits(r.layer_input.body(), want.layer_input));
    EXPECT_TRUE(new_pre.guards_intact());
    r.expect_guards_intact();
  }
}

TEST_P(HipCpuMhc, PostMatchesCpuBitwise) {
  const auto& [hip, c] = GetParam();
  MhcRun r(c);
  ASSERT_EQ(hip.mhc_post(r.post_params(r.res_out.ptr()), nullptr), 0);
  ASSERT_EQ(hip_cpu::synchronize(), 0);
  std::vector<bf16> want(r.res_out.n);
  cpu::mhc_post(r.post_params(want.data()), kSerial);
  EXPECT_TRUE(same_bits(r.res_out.body(), want));
  r.expect_guards_intact();
}

// residual_out bitwise equal to the CPU post; the pre half (which re-reads the residual_out its
// own threads stored) equal to a CPU pre on that residual_out up to reduction order.
TEST_P(HipCpuMhc, FusedEqualsPostThenPre) {
  const auto& [hip, c] = GetParam();
  MhcRun r(c);
  const MhcFusedParams fused{r.post_params(r.res_out.ptr()), r.hip_pre(r.res_out.ptr(), c.norm)};
  ASSERT_EQ(hip.mhc_fused_post_pre(fused, nullptr), 0);
  ASSERT_EQ(hip_cpu::synchronize(), 0);
  std::vector<bf16> res_out(r.res_out.n);
  cpu::mhc_post(r.post_params(res_out.data()), kSerial);
  EXPECT_TRUE(same_bits(r.res_out.body(), res_out));
  const CpuPre want = cpu_pre(r, res_out.data(), c.norm, false);
  expect_pre_near(r, want, c.norm);
  r.expect_guards_intact();
}

// DeepSeek-V4.1's seam, stream 0 and carried: residual_out bitwise equal to the CPU post; the delayed
// pre half (which re-reads the residual_out its own threads stored) equal to a CPU mhc_pre_delayed on
// that residual_out up to reduction order (stream 0 without the norm: bitwise).
TEST_P(HipCpuMhc, FusedDelayedEqualsPostThenDelayedPre) {
  const auto& [hip, c] = GetParam();
  std::vector<float> pre_mix(size_t(c.tokens * c.n));
  for (size_t i = 0; i < pre_mix.size(); ++i) pre_mix[i] = 0.25f + 0.01f * float(i % 89);
  for (int entry = 0; entry < 2; ++entry) {
    SCOPED_TRACE(::testing::Message() << "entry " << entry);
    MhcRun r(c);
    Guarded<float> new_pre(size_t(c.tokens * c.n));
    const float* carried = entry == 1 ? pre_mix.data() : nullptr;
    const MhcFusedDelayedParams p{r.post_params(r.res_out.ptr()),
                                  {r.hip_pre(r.res_out.ptr(), c.norm), nullptr, carried, new_pre.ptr()}};
    ASSERT_EQ(hip.mhc_fused_post_pre_delayed(p, nullptr), 0);
    ASSERT_EQ(hip_cpu::synchronize(), 0);
    std::vector<bf16> res_out(r.res_out.n);
    cpu::mhc_post(r.post_params(res_out.data()), kSerial);
    EXPECT_TRUE(same_bits(r.res_out.body(), res_out));
    CpuPre want{std::vector<float>(size_t(c.tokens * c.n)), std::vector<float>(size_t(c.tokens * c.n * c.n)),
                std::vector<bf16>(size_t(c.tokens * c.hidden))};
    std::vector<float> want_pre(size_t(c.tokens * c.n));
    const MhcPreDelayedParams cp{r.pre_params(res_out.data(), p.pre.pre.norm_weight, want.post.data(),
                                              want.comb.data(), want.layer_input.data()),
                                 nullptr, carried, want_pre.data()};
    cpu::mhc_pre_delayed(cp, kSerial);
    expect_pre_near(r, want, c.norm);
    expect_float_near(new_pre.body(), want_pre, 2e-5f);
    if (entry == 0 && !c.norm) EXPECT_TRUE(same_bits(r.layer_input.body(), want.layer_input));
    EXPECT_TRUE(new_pre.guards_intact());
    r.expect_guards_intact();
  }
}

// hc_head: its n head rows are the first n rows of fn; post_mix and comb_mix stay untouched.
TEST_P(HipCpuMhc, HcHeadMatchesCpu) {
  const auto& [hip, c] = GetParam();
  MhcRun r(c);
  ASSERT_EQ(hip.hc_head(r.hip_pre(r.residual.data(), false), nullptr), 0);
  ASSERT_EQ(hip_cpu::synchronize(), 0);
  const CpuPre want = cpu_pre(r, r.residual.data(), false, true);
  expect_bf16_near(r.layer_input.body(), want.layer_input, 2.0f);
  EXPECT_TRUE(r.post.untouched() && r.comb.untouched()) << "hc_head wrote post_mix or comb_mix";
  r.expect_guards_intact();
}

// mhc_post_hc_head with the stash: the stash bitwise the CPU post's, the output (with the case's
// final norm) against the CPU op within the hc_head limits.
TEST_P(HipCpuMhc, PostHcHeadMatchesCpu) {
  const auto& [hip, c] = GetParam();
  MhcRun r(c);
  MhcPostHeadParams p{r.post_params(r.res_out.ptr()), r.hip_pre(nullptr, c.norm)};
  ASSERT_EQ(hip.mhc_post_hc_head(p, nullptr), 0);
  ASSERT_EQ(hip_cpu::synchronize(), 0);
  std::vector<bf16> stash(r.res_out.n), out(size_t(r.tokens * r.hidden));
  MhcPostHeadParams want{r.post_params(stash.data()),
                         r.pre_params(nullptr, c.norm ? r.weight.data() : nullptr, nullptr, nullptr, out.data())};
  cpu::mhc_post_hc_head(want, kSerial);
  EXPECT_TRUE(same_bits(r.res_out.body(), stash));
  expect_bf16_near(r.layer_input.body(), out, c.norm ? 3.0f : 2.0f);
  EXPECT_TRUE(r.post.untouched() && r.comb.untouched()) << "mhc_post_hc_head wrote post_mix or comb_mix";
  r.expect_guards_intact();
}

std::string case_name(const ::testing::TestParamInfo<std::tuple<Launchers, MhcCase>>& info) {
  const auto& [hip, c] = info.param;
  return std::string(hip.arch) + "_n" + std::to_string(c.n) + "_D" + std::to_string(c.hidden) + "_T" +
         std::to_string(c.tokens) + (c.norm ? "_norm" : "");
}

// Tiles: 4 tokens at n = 1, 2 at n = 3, 4, 1 at n = 8 (hc_head: 4, 3, 2, 1). The last case
// exceeds the grid of every kernel: 1218 tiles of 4 tokens > 304 CUs x 4 workgroups (gfx942) and
// 256 x 4 (gfx950); for mhc_post 4870 tokens x 2 segments > 4 waves x 304 x 8 workgroups.
INSTANTIATE_TEST_SUITE_P(
    Shapes, HipCpuMhc,
    ::testing::Combine(::testing::ValuesIn(hip_cpu::kArchs),
                       ::testing::Values(MhcCase{1, 7, 9, true}, MhcCase{1, 8, 3, false}, MhcCase{3, 65, 17, true},
                                         MhcCase{3, 520, 5, false}, MhcCase{4, 512, 37, false},
                                         MhcCase{4, 512, 37, true}, MhcCase{4, 2056, 3, true},
                                         MhcCase{4, 2053, 3, false}, MhcCase{8, 24, 3, true},
                                         MhcCase{8, 33, 4, false}, MhcCase{1, 520, 4870, true})),
    case_name);

// ---- sinkhorn -------------------------------------------------------------------------------

class HipCpuSinkhorn : public ::testing::TestWithParam<std::tuple<Launchers, int>> {};

// n = 1 with more matrices than the grid's threads (2432 workgroups of 256 on gfx942).
TEST_P(HipCpuSinkhorn, MatchesCpuBitwise) {
  const auto& [hip, n] = GetParam();
  const int64_t batch = n == 1 ? 2432 * 256 + 5 : 300;
  const std::vector<float> logits = normal_floats(size_t(batch * n * n), 11, 2.0f);
  Guarded<float> out(logits.size());
  ASSERT_EQ(hip.sinkhorn(SinkhornParams{logits.data(), out.ptr(), batch, n, 20, 1e-6f}, nullptr), 0);
  ASSERT_EQ(hip_cpu::synchronize(), 0);
  std::vector<float> want(logits.size());
  cpu::sinkhorn(SinkhornParams{logits.data(), want.data(), batch, n, 20, 1e-6f}, kSerial);
  EXPECT_TRUE(same_bits(out.body(), want));
  EXPECT_TRUE(out.guards_intact());
}

INSTANTIATE_TEST_SUITE_P(Sizes, HipCpuSinkhorn,
                         ::testing::Combine(::testing::ValuesIn(hip_cpu::kArchs), ::testing::Values(1, 3, 4, 8)),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param).arch) + "_n" +
                                  std::to_string(std::get<1>(info.param));
                         });

}  // namespace
}  // namespace dsv4::test
