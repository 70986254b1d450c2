// The wave collectives of common/wave.h through the host lane emulation, at widths 64 (CDNA) and
// 32, against serial answers: the same algorithm templates the HIP kernels instantiate on Amdgcn.
// Then the HIP top-k's radix select (topk_math.h's digits, wave bin pick and output slots, driven
// as csrc/hip/topk.hip drives them) against the CPU top-k.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "common/topk_math.h"
#include "common/wave.h"
#include "cpu/cpu_ops.h"
#include "test_util.h"

namespace dsv4::wave {
namespace {

template <class B>
class WaveTest : public ::testing::Test {};
using Widths = ::testing::Types<Emulated<64>, Emulated<32>>;
TYPED_TEST_SUITE(WaveTest, Widths);

// Lane values for `active` lanes from `gen`; the rest hold `idle` (the identity a kernel passes).
template <class B, class T, class Gen>
typename B::template Val<T> fill(int active, T idle, Gen gen) {
  typename B::template Val<T> v;
  for (int i = 0; i < B::kWidth; ++i) v[i] = i < active ? gen() : idle;
  return v;
}

template <class B>
std::vector<int> active_counts() {
  return {1, 2, 3, 15, 16, 17, 31, B::kWidth / 2 + 1, B::kWidth - 1, B::kWidth};
}

TYPED_TEST(WaveTest, SumOfIntegersIsExactInEveryLane) {
  using B = TypeParam;
  std::mt19937 gen(1);
  std::uniform_int_distribution<int32_t> dist(-1000000, 1000000);
  for (int active : active_counts<B>()) {
    const auto v = fill<B, int32_t>(active, 0, [&] { return dist(gen); });
    int64_t want = 0;
    for (int i = 0; i < active; ++i) want += v[i];
    const auto s = sum<B>(v);
    for (int i = 0; i < B::kWidth; ++i) ASSERT_EQ(s[i], want) << "active " << active << ", " << i;
  }
}

// Floats: every lane holds the same bits (a butterfly with a commutative add), close to the serial
// double sum, and the result depends only on the values, not on which lane runs first.
TYPED_TEST(WaveTest, SumOfFloatsIsLaneUniformAndFixedOrder) {
  using B = TypeParam;
  std::mt19937 gen(2);
  std::normal_distribution<float> dist(0.0f, 100.0f);
  for (int active : active_counts<B>()) {
    const auto v = fill<B, float>(active, 0.0f, [&] { return dist(gen); });
    double want = 0.0, mag = 0.0;
    for (int i = 0; i < active; ++i) want += v[i], mag += std::abs(v[i]);
    const auto s = sum<B>(v);
    const auto again = sum<B>(v);
    for (int i = 0; i < B::kWidth; ++i) {
      ASSERT_EQ(float_to_bits(s[i]), float_to_bits(s[0])) << "lane " << i;
      ASSERT_EQ(float_to_bits(again[i]), float_to_bits(s[0]));
    }
    EXPECT_NEAR(s[0], want, 1e-6 * mag + 1e-6) << "active " << active;
  }
}

TYPED_TEST(WaveTest, Max) {
  using B = TypeParam;
  std::mt19937 gen(3);
  std::uniform_int_distribution<uint32_t> udist;
  std::normal_distribution<float> fdist(0.0f, 1.0f);
  for (int active : active_counts<B>()) {
    const auto u = fill<B, uint32_t>(active, 0u, [&] { return udist(gen); });
    const auto f = fill<B, float>(active, -INFINITY, [&] { return fdist(gen) - 10.0f; });
    uint32_t want_u = 0;
    float want_f = -INFINITY;
    for (int i = 0; i < active; ++i) {
      want_u = std::max(want_u, u[i]);
      want_f = std::max(want_f, f[i]);
    }
    const auto mu = max<B>(u);
    const auto mf = max<B>(f);
    for (int i = 0; i < B::kWidth; ++i) {
      ASSERT_EQ(mu[i], want_u);
      ASSERT_EQ(mf[i], want_f);
    }
  }
}

TYPED_TEST(WaveTest, PrefixSums) {
  using B = TypeParam;
  std::mt19937 gen(4);
  std::uniform_int_distribution<int32_t> dist(-5000, 70000);
  for (int active : active_counts<B>()) {
    const auto v = fill<B, int32_t>(active, 0, [&] { return dist(gen); });
    const auto inc = inclusive_sum<B, int32_t>(v);
    const auto exc = exclusive_sum<B, int32_t>(v);
    int32_t run = 0;
    for (int i = 0; i < B::kWidth; ++i) {
      ASSERT_EQ(exc[i], run) << "active " << active << " lane " << i;
      run += v[i];
      ASSERT_EQ(inc[i], run) << "active " << active << " lane " << i;
    }
  }
  // Unsigned packed counters (two 16-bit fields, as the top-k scan uses) carry exactly too.
  const auto ones = fill<B, uint32_t>(B::kWidth, 0u, [] { return (1u << 16) | 1u; });
  const auto inc = inclusive_sum<B, uint32_t>(ones);
  for (int i = 0; i < B::kWidth; ++i) ASSERT_EQ(inc[i], uint32_t(i + 1) * ((1u << 16) | 1u));
}

TYPED_TEST(WaveTest, BallotCounts) {
  using B = TypeParam;
  std::mt19937 gen(5);
  for (int active : active_counts<B>()) {
    for (double density : {0.0, 0.1, 0.5, 0.9, 1.0}) {
      std::bernoulli_distribution coin(density);
      const auto pred = fill<B, bool>(active, false, [&] { return coin(gen); });
      const auto below = count_below<B>(pred);
      int run = 0;
      for (int i = 0; i < B::kWidth; ++i) {
        ASSERT_EQ(below[i], run) << "active " << active << " lane " << i;
        run += pred[i];
      }
      ASSERT_EQ(count<B>(pred), run);
    }
  }
}

// The primitives themselves, as the AMD instructions define them (DPP row_shr / row_bcast rows
// of 16 lanes, xor swizzles), on lane ids.
TYPED_TEST(WaveTest, PrimitivesMoveLanesAsTheHardwareDoes) {
  using B = TypeParam;
  const auto id = B::lane_id();
  const auto x4 = B::template xor_lane<4>(id);
  const auto up3 = B::template up_in_row<3>(id, -1);
  const auto c16 = B::template carry<16>(id, -1);
  for (int i = 0; i < B::kWidth; ++i) {
    EXPECT_EQ(x4[i], i ^ 4);
    EXPECT_EQ(up3[i], i % 16 >= 3 ? i - 3 : -1);
    EXPECT_EQ(c16[i], (i / 16) % 2 == 1 ? (i / 16) * 16 - 1 : -1);
  }
  if constexpr (B::kWidth == 64) {
    const auto c32 = B::template carry<32>(id, -1);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(c32[i], i >= 32 ? 31 : -1);
  }
}

// One row through the HIP kernel's select: per pass a histogram of the candidates' digit, ranked
// from the top; the wave of width B::kWidth picks the bin from per-lane rank totals; stop once the
// whole bin is needed; then the ordered write places each selected index at topk_slot(...).
template <class B>
std::vector<int32_t> emulated_topk_row(const std::vector<float>& row, int k) {
  std::vector<uint32_t> keys(row.size());
  for (size_t i = 0; i < row.size(); ++i) keys[i] = topk_key(row[i]);
  constexpr int kPerLane = kTopkBins / B::kWidth;
  uint32_t prefix = 0, mask = 0, remaining = uint32_t(k);
  for (int pass = 0; pass < kTopkRadixPasses; ++pass) {
    const int shift = topk_digit_shift(pass);
    std::vector<uint32_t> hist(kTopkBins, 0);
    for (uint32_t key : keys)
      if ((key & mask) == prefix) ++hist[(key >> shift) & uint32_t(kTopkBins - 1)];
    const auto count = [&](uint32_t rank) { return hist[kTopkBins - 1 - rank]; };
    typename B::template Val<uint32_t> lane_total;
    for (int l = 0; l < B::kWidth; ++l) {
      lane_total[l] = 0;
      for (int j = 0; j < kPerLane; ++j) lane_total[l] += count(uint32_t(l * kPerLane + j));
    }
    const TopkPick pick = topk_pick_bin<B>(lane_total, kPerLane, remaining, count);
    EXPECT_EQ(pick.count, count(pick.rank));
    prefix |= (uint32_t(kTopkBins - 1) - pick.rank) << shift;
    mask |= topk_digit_mask(pass) << shift;
    remaining = pick.remaining;
    if (pick.remaining == pick.count) break;
  }
  std::vector<int32_t> out(size_t(k), -2);
  uint32_t above = 0, on = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const bool gt = (keys[i] & mask) > prefix, eq = (keys[i] & mask) == prefix;
    if (gt || (eq && on < remaining)) {
      const uint32_t slot = topk_slot(above, on, remaining);
      EXPECT_LT(slot, uint32_t(k));
      if (slot < uint32_t(k)) out[slot] = int32_t(i);
    }
    above += gt;
    on += eq;
  }
  return out;
}

std::vector<int32_t> cpu_topk_row(const std::vector<float>& row, int k) {
  const int32_t end = int32_t(row.size());
  std::vector<int32_t> out(static_cast<size_t>(k));
  TopKParams p{};
  p.logits = row.data();
  p.rows = 1;
  p.width = int64_t(row.size());
  p.logits_row_stride = p.width;
  p.logits_col_stride = 1;
  p.row_ends = &end;
  p.next_n = 1;
  p.seq_lens_2d = true;
  p.indices = out.data();
  p.indices_row_stride = k;
  p.k = k;
  p.deterministic = true;
  cpu::top_k_per_row(p, test::kSerial);
  return out;
}

TYPED_TEST(WaveTest, RadixSelectMatchesCpuTopK) {
  using B = TypeParam;
  std::mt19937 gen(6);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_int_distribution<int> small(-3, 3);
  const float specials[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-45f, -1e-45f};
  struct Case {
    int len, k;
    int kind;  // 0 normal, 1 few distinct values (ties everywhere), 2 mostly specials
  };
  for (const Case c : {Case{1000, 1, 0}, Case{1000, 999, 0}, Case{5000, 512, 0}, Case{5000, 512, 1},
                       Case{3000, 700, 2}, Case{20000, 2048, 0}, Case{20000, 2048, 1},
                       Case{4097, 1024, 2}, Case{70000, 512, 0}}) {
    std::vector<float> row(size_t(c.len));
    for (float& x : row) {
      if (c.kind == 0) x = normal(gen);
      if (c.kind == 1) x = float(small(gen));
      if (c.kind == 2) x = gen() % 4 ? specials[gen() % 8] : normal(gen);
    }
    EXPECT_EQ(emulated_topk_row<B>(row, c.k), cpu_topk_row(row, c.k))
        << "len " << c.len << " k " << c.k << " kind " << c.kind;
  }
}

}  // namespace
}  // namespace dsv4::wave
