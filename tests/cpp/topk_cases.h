// Top-k inputs shared by the CPU launcher test (against a brute-force reference) and the HIP-CPU
// test (HIP launchers against the CPU launcher): windows, ties, NaN / inf, strides, decode.
#pragma once

#include <algorithm>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "common/compat.h"
#include "common/op_params.h"
#include "test_util.h"

namespace dsv4::test {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct TopkCase {
  std::vector<float> logits;  // backing storage; row r column j at offset + r*row_stride + j*col_stride
  int64_t offset = 0, rows = 0, width = 0, row_stride = 0, col_stride = 1;
  std::vector<int32_t> starts, ends;  // prefill (starts non-empty) or decode seq_lens (ends only)
  int next_n = 1;
  bool seq_lens_2d = false;
  int k = 1;

  TopKParams params(int32_t* indices, int64_t indices_row_stride, bool deterministic) const {
    return {logits.data() + offset, rows, width, row_stride, col_stride,
            starts.empty() ? nullptr : starts.data(), ends.data(), next_n, seq_lens_2d, indices,
            indices_row_stride, k, deterministic};
  }
};

// Rows of `width` with windows of length 0, 1, k-1, k, k+1, width, then random ones.
inline TopkCase prefill_case(int64_t rows, int64_t width, int k, uint32_t seed) {
  TopkCase c;
  c.rows = rows;
  c.width = width;
  c.row_stride = width;
  c.k = k;
  c.logits = normal_floats(size_t(rows * width), seed);
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

// Windows starting or ending outside [0, width), or ending before they start.
inline TopkCase clamped_windows_case() {
  TopkCase c = prefill_case(6, 40, 3, 9);
  c.starts = {-6, 30, 12, 45, -9, 38};
  c.ends = {10, 99, 4, 50, -2, 40};
  return c;
}

// NaN (both signs, payloads) below -inf; -inf an ordinary candidate; -0.0 == +0.0; |x| > 65504.
// Rows of 7, k = 4; `want` gets the expected indices (ascending).
inline TopkCase special_values_case(std::vector<int32_t>* want) {
  const float neg_nan = bits_to_float(0xffc00001u), snan = bits_to_float(0x7f800001u);
  const std::vector<std::pair<std::vector<float>, std::vector<int32_t>>> rows = {
      {{kNaN, 1.0f, neg_nan, 2.0f, -kInf, 3.0f, snan}, {1, 3, 4, 5}},
      {{kNaN, 5.0f, kNaN, neg_nan, 4.0f, kNaN, kNaN}, {0, 1, 2, 4}},
      {{-kInf, 1.0f, -kInf, -kInf, 2.0f, -kInf, -kInf}, {0, 1, 2, 4}},
      {{-0.0f, -1.0f, -0.0f, 0.0f, -0.0f, 0.0f, 0.0f}, {0, 2, 3, 4}},  // +0.0 does not outrank -0.0
      {{65504.0f, 65505.0f, 7e4f, -7e4f, 1e30f, kInf, kNaN}, {1, 2, 4, 5}},
      {{kNaN, neg_nan, snan, kNaN, kNaN, kNaN, kNaN}, {0, 1, 2, 3}},
  };
  TopkCase c;
  c.rows = int64_t(rows.size());
  c.width = c.row_stride = 7;
  c.k = 4;
  for (const auto& [values, expect] : rows) {
    c.logits.insert(c.logits.end(), values.begin(), values.end());
    want->insert(want->end(), expect.begin(), expect.end());
    c.starts.push_back(0);
    c.ends.push_back(7);
  }
  return c;
}

// Spec §7 lesson 1: 2000 x 2.0 + 5000 values in [1.0, 1.03), and 100 winners + 8220 zeros, k = 2048.
inline TopkCase threshold_ties_case() {
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> band(1.0f, 1.03f), win(1.0f, 2.0f);
  TopkCase c;
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
  return c;
}

// Rows of 16512 whose keys share their high bits (all three radix passes), k = 2048.
inline TopkCase narrow_bands_case() {
  std::mt19937 gen(6);
  TopkCase c;
  c.rows = 3;
  c.width = c.row_stride = 16512;
  c.k = 2048;
  for (int i = 0; i < 16512; ++i) c.logits.push_back(1.0f + 0.245f * float(gen() % 100000) / 100000.0f);
  for (int i = 0; i < 16512; ++i) c.logits.push_back(bits_to_float(0x3f800000u | (gen() & 0x3ffu)));
  for (int i = 0; i < 16512; ++i) c.logits.push_back(float(int(gen() % 7) - 3));
  c.starts = {0, 1, 129};
  c.ends = {16512, 16385, 16512};
  return c;
}

// The rows of prefill_case(9, 101, 16, 7) at column stride 3 and a row pitch of 3 * 101 + 2 (not
// a multiple of 4), starting one element in; the skipped elements are +inf / NaN so reading them
// changes the answer. `dense` gets the same rows contiguous.
inline TopkCase strided_case(TopkCase* dense) {
  const int64_t width = 101, col = 3, pitch = width * col + 2, rows = 9;
  *dense = prefill_case(rows, width, 16, 7);
  TopkCase c = *dense;
  c.logits.assign(size_t(1 + rows * pitch), kNaN);
  for (size_t i = 0; i < c.logits.size(); i += 2) c.logits[i] = kInf;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < width; ++j) c.logits[1 + r * pitch + j * col] = dense->logits[r * width + j];
  c.offset = 1;
  c.row_stride = pitch;
  c.col_stride = col;
  return c;
}

// No rows (an 8-wide row's inputs, rows = 0): nothing may be written.
inline TopkCase zero_rows_case() {
  TopkCase c;
  c.width = c.row_stride = 8;
  c.k = 4;
  c.logits.assign(8, 1.0f);
  c.starts = {0};
  c.ends = {8};
  return c;
}

// Decode: 6 sequences of next_n rows of 700, seq_lens [B] (causal within next_n) or [B, next_n].
inline TopkCase decode_case(int next_n, bool two_d) {
  TopkCase c;
  const int64_t batch = 6;
  c.rows = batch * next_n;
  c.width = c.row_stride = 700;
  c.k = 512;
  c.next_n = next_n;
  c.seq_lens_2d = two_d;
  c.logits = normal_floats(size_t(c.rows * c.width), uint32_t(next_n));
  const int32_t pool[] = {0, -3, 1, 511, 512, 513, 700, 900, 2, 650};
  for (int64_t i = 0; i < (two_d ? c.rows : batch); ++i) c.ends.push_back(pool[(i * 7 + next_n) % 10]);
  return c;
}

}  // namespace dsv4::test
