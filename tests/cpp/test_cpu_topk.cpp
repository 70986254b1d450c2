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

namespace dsv4 {
namespace {

using test::kSerial;
using test::kThreaded;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
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

struct Case {
  std::vector<float> logits;  // backing storage; row r column j at offset + r*row_stride + j*col_stride
  int64_t offset = 0, rows = 0, width = 0, row_stride = 0, col_stride = 1;
  std::vector<int32_t> starts, ends;  // prefill (starts non-empty) or decode seq_lens (ends only)
  int next_n = 1;
  bool seq_lens_2d = false;
  int k = 1;

  TopKParams params(int32_t* indices, int64_t indices_row_stride, bool deterministic) const {
    TopKParams p{};
    p.logits = logits.data() + offset;
    p.rows = rows;
    p.width = width;
    p.logits_row_stride = row_stride;
    p.logits_col_stride = col_stride;
    p.row_starts = starts.empty() ? nullptr : starts.data();
    p.row_ends = ends.data();
    p.next_n = next_n;
    p.seq_lens_2d = seq_lens_2d;
    p.indices = indices;
    p.indices_row_stride = indices_row_stride;
    p.k = k;
    p.deterministic = deterministic;
    return p;
  }

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

Case prefill_case(int64_t rows, int64_t width, int k, uint32_t seed) {
  Case c;
  c.rows = rows;
  c.width = width;
  c.row_stride = width;
  c.k = k;
  c.logits = test::normal_floats(size_t(rows * width), seed);
  std::mt19937 gen(seed);
  const int64_t lens[] = {0, 1, k - 1, k, k + 1, width};
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t n = r < 6 ? std::clamp<int64_t>(lens[r], 0, width) : int64_t(gen() % (width + 1));
    const int64_t s = int64_t(gen() % (width - n + 1));
    c.starts.push_back(int32_t(s));
    c.ends.push_back(int32_t(s + n));
  }
  return c;
}

TEST(CpuTopK, RandomRowsMatchReference) {
  for (int k : {1, 7, 512, 2048}) {
    SCOPED_TRACE(k);
    check_case(prefill_case(24, 3 * k + 5, k, uint32_t(k)));
  }
}

TEST(CpuTopK, WindowsOutsideTheRowAreClamped) {
  Case c = prefill_case(6, 40, 3, 9);
  c.starts = {-6, 30, 12, 45, -9, 38};
  c.ends = {10, 99, 4, 50, -2, 40};
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
  // NaN (both signs, payloads) below -inf; -inf an ordinary candidate; -0.0 == +0.0; |x| > 65504.
  const float neg_nan = bits_to_float(0xffc00001u), snan = bits_to_float(0x7f800001u);
  const std::vector<std::pair<std::vector<float>, std::vector<int32_t>>> rows = {
      {{kNaN, 1.0f, neg_nan, 2.0f, -kInf, 3.0f, snan}, {1, 3, 4, 5}},
      {{kNaN, 5.0f, kNaN, neg_nan, 4.0f, kNaN, kNaN}, {0, 1, 2, 4}},
      {{-kInf, 1.0f, -kInf, -kInf, 2.0f, -kInf, -kInf}, {0, 1, 2, 4}},
      {{-0.0f, -1.0f, -0.0f, 0.0f, -0.0f, 0.0f, 0.0f}, {0, 2, 3, 4}},  // +0.0 does not outrank -0.0
      {{65504.0f, 65505.0f, 7e4f, -7e4f, 1e30f, kInf, kNaN}, {1, 2, 4, 5}},
      {{kNaN, neg_nan, snan, kNaN, kNaN, kNaN, kNaN}, {0, 1, 2, 3}},
  };
  Case c;
  c.rows = int64_t(rows.size());
  c.width = c.row_stride = 7;
  c.k = 4;
  std::vector<int32_t> want;
  for (const auto& [values, expect] : rows) {
    c.logits.insert(c.logits.end(), values.begin(), values.end());
    want.insert(want.end(), expect.begin(), expect.end());
    c.starts.push_back(0);
    c.ends.push_back(7);
  }
  EXPECT_EQ(c.run(true, kSerial), want);
  check_case(c);
}

TEST(CpuTopK, LessonOneInputs) {
  // §7 lesson 1: 2000 x 2.0 + 5000 values in [1.0, 1.03), and 100 winners + 8220 zeros, k = 2048.
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> band(1.0f, 1.03f), win(1.0f, 2.0f);
  Case c;
  c.rows = 2;
  c.width = c.row_stride = 8320;
  c.k = 2048;
  std::vector<float> a(8320, -kInf);  // columns past 7000 are outside row 0's window
  for (int i = 0; i < 7000; ++i) a[i] = i < 2000 ? 2.0f : band(gen);
  std::shuffle(a.begin(), a.begin() + 7000, gen);
  std::vector<float> b(8320, 0.0f);
  for (int i = 0; i < 100; ++i) b[i] = win(gen);
  std::shuffle(b.begin(), b.end(), gen);
  c.logits = a;
  c.logits.insert(c.logits.end(), b.begin(), b.end());
  c.starts = {0, 0};
  c.ends = {7000, 8320};
  check_case(c);
}

TEST(CpuTopK, NarrowBandsAndSharedHighBits) {
  std::mt19937 gen(6);
  Case c;
  c.rows = 3;
  c.width = c.row_stride = 16512;
  c.k = 2048;
  for (int i = 0; i < 16512; ++i) c.logits.push_back(1.0f + 0.245f * float(gen() % 100000) / 100000.0f);
  for (int i = 0; i < 16512; ++i) c.logits.push_back(bits_to_float(0x3f800000u | (gen() & 0x3ffu)));
  for (int i = 0; i < 16512; ++i) c.logits.push_back(float(int(gen() % 7) - 3));
  c.starts = {0, 1, 129};
  c.ends = {16512, 16385, 16512};
  check_case(c);
}

TEST(CpuTopK, StridedLogits) {
  // Column stride 3 and a row pitch of 3 * 101 + 2 (not a multiple of 4), starting one element in;
  // the skipped elements are +inf / NaN so reading them changes the answer.
  const int64_t width = 101, col = 3, pitch = width * col + 2, rows = 9;
  const auto values = test::normal_floats(size_t(rows * width), 7);
  Case c = prefill_case(rows, width, 16, 7);
  c.logits.assign(size_t(1 + rows * pitch), kNaN);
  for (size_t i = 0; i < c.logits.size(); i += 2) c.logits[i] = kInf;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < width; ++j) c.logits[1 + r * pitch + j * col] = values[r * width + j];
  c.offset = 1;
  c.row_stride = pitch;
  c.col_stride = col;
  Case dense = c;
  dense.logits = values;
  dense.offset = 0;
  dense.row_stride = width;
  dense.col_stride = 1;
  EXPECT_EQ(c.run(true, kSerial), dense.expected());
  check_case(c);
}

TEST(CpuTopK, DecodeWindows) {
  for (int next_n : {1, 2, 4}) {
    for (bool two_d : {false, true}) {
      SCOPED_TRACE(testing::Message() << "next_n=" << next_n << " 2d=" << two_d);
      Case c;
      const int64_t batch = 6;
      c.rows = batch * next_n;
      c.width = c.row_stride = 700;
      c.k = 512;
      c.next_n = next_n;
      c.seq_lens_2d = two_d;
      c.logits = test::normal_floats(size_t(c.rows * c.width), uint32_t(next_n));
      const int32_t pool[] = {0, -3, 1, 511, 512, 513, 700, 900, 2, 650};
      for (int64_t i = 0; i < (two_d ? c.rows : batch); ++i) c.ends.push_back(pool[(i * 7 + next_n) % 10]);
      check_case(c);
    }
  }
}

TEST(CpuTopK, ZeroRowsWritesNothing) {
  Case c;
  c.width = c.row_stride = 8;
  c.k = 4;
  c.logits.assign(8, 1.0f);
  c.starts = {0};
  c.ends = {8};
  std::vector<int32_t> buffer(8, kSentinel);
  cpu::top_k_per_row(c.params(buffer.data(), 4, true), kSerial);
  EXPECT_EQ(buffer, std::vector<int32_t>(8, kSentinel));
}

TEST(CpuTopK, ThreadedEqualsSerialOnManyRows) {
  Case c = prefill_case(300, 600, 64, 11);
  for (bool det : {false, true}) EXPECT_EQ(c.run(det, kSerial), c.run(det, kThreaded));
}

}  // namespace
}  // namespace dsv4
