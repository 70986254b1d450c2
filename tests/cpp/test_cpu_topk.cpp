// dsv4::cpu::top_k_per_row against a brute-force reference (shared/spec/topk.md §2-§4): windows,
// ties, NaN / inf, strides, output row stride, and serial == threaded execution.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "common/topk_math.h"
#include "cpu/cpu_ops.h"
#include "test_util.h"
#include "topk_cases.h"

namespace dsv4 {
namespace {

using test::kInf;
using test::kNaN;
using test::kSerial;
using test::kThreaded;

constexpr int32_t kSentinel = 0x7fffffff;

// Independent order (no topk_key): NaN lowest, then ordinary float comparison (-0.0 == +0.0).
bool ranks_above(float a, float b) {
  if (std::isnan(a)) return false;
  if (std::isnan(b)) return true;
  return a > b;
}

// Expected row, deterministic form: the k best by (value, lowest index), ascending; short rows
// give 0..len-1 then -1.
std::vector<int32_t> reference_row(const float* row, int64_t col_stride, int64_t len, int k) {
  std::vector<int32_t> out(size_t(k), -1);
  if (len <= k) {
    std::iota(out.begin(), out.begin() + len, 0);
    return out;
  }
  std::vector<int32_t> idx(len);
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](int32_t a, int32_t b) { return ranks_above(row[a * col_stride], row[b * col_stride]); });
  std::copy(idx.begin(), idx.begin() + k, out.begin());
  std::sort(out.begin(), out.end());
  return out;
}

// A shared input (topk_cases.h) with what this test does with it.
struct Case : test::TopkCase {
  int64_t length(int64_t r) const {
    int64_t s = 0, n = 0;
    topk_row_window(params(nullptr, k, true), r, &s, &n);
    return n;
  }

  std::vector<int32_t> expected() const {
    std::vector<int32_t> all;
    const TopKParams p = params(nullptr, k, true);
    for (int64_t r = 0; r < rows; ++r) {
      int64_t s = 0, n = 0;
      topk_row_window(p, r, &s, &n);
      auto row = reference_row(p.logits + r * row_stride + s * col_stride, col_stride, n, k);
      all.insert(all.end(), row.begin(), row.end());
    }
    return all;
  }

  // Runs into a sentinel-filled [rows, k + pad] buffer; checks the pad is untouched and returns the
  // [rows, k] part.
  std::vector<int32_t> run(bool deterministic, const cpu::Executor& ex, int pad = 3) const {
    const int64_t stride = k + pad;
    std::vector<int32_t> buffer(size_t(rows * stride + pad), kSentinel);
    cpu::top_k_per_row(params(buffer.data(), stride, deterministic), ex);
    std::vector<int32_t> out;
    for (int64_t r = 0; r < rows; ++r) {
      out.insert(out.end(), buffer.begin() + r * stride, buffer.begin() + r * stride + k);
      for (int64_t j = k; j < stride; ++j) EXPECT_EQ(buffer[r * stride + j], kSentinel) << "row " << r << " pad";
    }
    for (int j = 0; j < pad; ++j) EXPECT_EQ(buffer[rows * stride + j], kSentinel) << "past the last row";
    return out;
  }
};

// Both modes, serial and threaded: deterministic equals the reference exactly; the default mode
// holds the same set per row; threaded equals serial bit for bit.
void check_case(const Case& c) {
  const auto want = c.expected();
  for (bool det : {false, true}) {
    const auto serial = c.run(det, kSerial);
    const auto threaded = c.run(det, kThreaded);
    EXPECT_EQ(serial, threaded) << "deterministic=" << det;
    for (int64_t r = 0; r < c.rows; ++r) {
      std::vector<int32_t> got(serial.begin() + r * c.k, serial.begin() + (r + 1) * c.k);
      std::vector<int32_t> exp(want.begin() + r * c.k, want.begin() + (r + 1) * c.k);
      if (!det && c.length(r) > c.k) std::sort(got.begin(), got.end());  // order unspecified
      ASSERT_EQ(got, exp) << "row " << r << " deterministic=" << det;
    }
  }
}

TEST(CpuTopK, RandomRowsMatchReference) {
  for (int k : {1, 7, 512, 2048}) {
    SCOPED_TRACE(k);
    check_case({test::prefill_case(24, 3 * k + 5, k, uint32_t(k))});
  }
}

TEST(CpuTopK, WindowsOutsideTheRowAreClamped) {
  const Case c{test::clamped_windows_case()};
  check_case(c);
  const auto out = c.run(true, kSerial);
  EXPECT_EQ(std::vector<int32_t>(out.begin() + 6, out.end()),
            (std::vector<int32_t>{-1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 1, -1}));
}

TEST(CpuTopK, IndicesAreRelativeToTheStart) {
  Case c;
  c.rows = 1;
  c.width = c.row_stride = 30;
  c.logits.assign(30, 0.0f);
  c.logits[10 + 4] = 5.0f;
  c.logits[2] = 9.0f;  // outside the window
  c.starts = {10};
  c.ends = {30};
  c.k = 1;
  EXPECT_EQ(c.run(true, kSerial), std::vector<int32_t>{4});
}

TEST(CpuTopK, TiesGoToTheLowestIndex) {
  Case c;
  c.rows = 2;
  c.width = c.row_stride = 64;
  c.logits.assign(128, 0.0f);
  c.logits[10] = c.logits[50] = c.logits[51] = 1.0f;
  c.starts = {0, 5};
  c.ends = {64, 64};
  c.k = 6;
  const std::vector<int32_t> want = {0, 1, 2, 10, 50, 51, 0, 1, 2, 3, 4, 5};
  EXPECT_EQ(c.run(true, kSerial), want);
  check_case(c);
}

TEST(CpuTopK, SpecialValues) {
  std::vector<int32_t> want;
  const Case c{test::special_values_case(&want)};
  EXPECT_EQ(c.run(true, kSerial), want);
  check_case(c);
}

TEST(CpuTopK, LessonOneInputs) { check_case({test::threshold_ties_case()}); }

TEST(CpuTopK, NarrowBandsAndSharedHighBits) { check_case({test::narrow_bands_case()}); }

TEST(CpuTopK, StridedLogits) {
  Case dense;
  const Case c{test::strided_case(&dense)};
  EXPECT_EQ(c.run(true, kSerial), dense.expected());
  check_case(c);
}

TEST(CpuTopK, DecodeWindows) {
  for (int next_n : {1, 2, 4}) {
    for (bool two_d : {false, true}) {
      SCOPED_TRACE(testing::Message() << "next_n=" << next_n << " 2d=" << two_d);
      check_case({test::decode_case(next_n, two_d)});
    }
  }
}

TEST(CpuTopK, ZeroRowsWritesNothing) {
  const Case c{test::zero_rows_case()};
  std::vector<int32_t> buffer(8, kSentinel);
  cpu::top_k_per_row(c.params(buffer.data(), 4, true), kSerial);
  EXPECT_EQ(buffer, std::vector<int32_t>(8, kSentinel));
}

TEST(CpuTopK, ThreadedEqualsSerialOnManyRows) {
  const Case c{test::prefill_case(300, 600, 64, 11)};
  for (bool det : {false, true}) EXPECT_EQ(c.run(det, kSerial), c.run(det, kThreaded));
}

}  // namespace
}  // namespace dsv4
