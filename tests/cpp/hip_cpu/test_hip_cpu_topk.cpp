// The HIP top_k_per_row launchers (gfx942 and gfx950) executed on the HIP CPU runtime, against the
// CPU launcher in deterministic mode: exact, in both modes (the HIP kernel always writes ascending
// index order). Rows cover short rows (len <= k), ties at the k-th value, NaN / inf / -0.0,
// windows outside the row, strided and misaligned rows, decode windows, rows past the LDS key cache
// (13312 keys on gfx942, 37888 on gfx950) and more rows than the grid. The output row pitch is k + 3
// and the buffer guarded: pads and guards must keep their preset -1 bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cpu/cpu_ops.h"
#include "hip_cpu_launchers.h"
#include "launcher_compare.h"
#include "test_util.h"
#include "topk_cases.h"

namespace dsv4::test {
namespace {

using hip_cpu::Launchers;

constexpr int kPad = 3;  // output row pitch k + kPad

void expect_matches_cpu(const Launchers& hip, const TopkCase& c) {
  const size_t cells = size_t(c.rows * (c.k + kPad));
  Guarded<int32_t> want(cells);
  cpu::top_k_per_row(c.params(want.ptr(), c.k + kPad, true), kSerial);
  for (bool det : {false, true}) {
    Guarded<int32_t> got(cells);
    ASSERT_EQ(hip.top_k_per_row(c.params(got.ptr(), c.k + kPad, det), nullptr), 0);
    ASSERT_EQ(hip_cpu::synchronize(), 0);
    EXPECT_EQ(got.body(), want.body()) << "deterministic=" << det;  // pads included: still -1
    EXPECT_TRUE(got.guards_intact()) << "wrote past the last row";
  }
}

class HipCpuTopK : public ::testing::TestWithParam<Launchers> {};

TEST_P(HipCpuTopK, RandomRows) {
  for (int k : {1, 7, 512, 2048}) {
    SCOPED_TRACE(k);
    expect_matches_cpu(GetParam(), prefill_case(24, 3 * k + 5, k, uint32_t(k)));
  }
}

TEST_P(HipCpuTopK, WindowsOutsideTheRow) { expect_matches_cpu(GetParam(), clamped_windows_case()); }

// 40 rows of 3000, every third with 1400 zeros: ties at the k-th value.
TEST_P(HipCpuTopK, TiesGoToTheLowestIndex) {
  TopkCase c = prefill_case(40, 3000, 256, 7);
  for (int64_t r = 0; r < c.rows; r += 3)
    std::fill(c.logits.begin() + r * 3000 + 100, c.logits.begin() + r * 3000 + 1500, 0.0f);
  expect_matches_cpu(GetParam(), c);
}

TEST_P(HipCpuTopK, SpecialValues) {
  std::vector<int32_t> want;
  expect_matches_cpu(GetParam(), special_values_case(&want));
}

TEST_P(HipCpuTopK, ManyTiesAtTheThreshold) { expect_matches_cpu(GetParam(), threshold_ties_case()); }

// 16512 keys: past gfx942's LDS cache (re-read per pass), inside gfx950's; 40001 past both.
TEST_P(HipCpuTopK, RowsPastTheLdsCache) {
  expect_matches_cpu(GetParam(), narrow_bands_case());
  expect_matches_cpu(GetParam(), prefill_case(2, 40001, 1000, 8));
}

TEST_P(HipCpuTopK, StridedLogits) {
  TopkCase dense;
  expect_matches_cpu(GetParam(), strided_case(&dense));
}

TEST_P(HipCpuTopK, DecodeWindows) {
  for (int next_n : {1, 2, 4}) {
    for (bool two_d : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "next_n=" << next_n << " 2d=" << two_d);
      expect_matches_cpu(GetParam(), decode_case(next_n, two_d));
    }
  }
}

// More rows than the grid (304 x 64 workgroups on gfx942, 256 x 64 on gfx950): most rows short,
// every 997th and the last ones long enough to select.
TEST_P(HipCpuTopK, MoreRowsThanTheGrid) {
  TopkCase c;
  c.rows = 304 * 64 + 3;
  c.width = c.row_stride = 16;
  c.k = 4;
  c.logits = normal_floats(size_t(c.rows * c.width), 12);
  for (int64_t r = 0; r < c.rows; ++r) {
    c.starts.push_back(0);
    c.ends.push_back(r % 997 == 0 || r >= 304 * 64 ? 16 : int32_t(r % 5));
  }
  expect_matches_cpu(GetParam(), c);
}

TEST_P(HipCpuTopK, ZeroRowsWritesNothing) {
  const TopkCase c = zero_rows_case();
  Guarded<int32_t> got(0);
  ASSERT_EQ(GetParam().top_k_per_row(c.params(got.ptr(), c.k, true), nullptr), 0);
  ASSERT_EQ(hip_cpu::synchronize(), 0);
  EXPECT_TRUE(got.untouched());
}

INSTANTIATE_TEST_SUITE_P(Archs, HipCpuTopK, ::testing::ValuesIn(hip_cpu::kArchs),
                         [](const auto& info) { return std::string(info.param.arch); });

}  // namespace
}  // namespace dsv4::test
