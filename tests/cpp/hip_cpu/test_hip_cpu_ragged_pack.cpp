// The HIP ragged_pack launchers (gfx942 and gfx950) executed on the HIP CPU runtime, against the
// CPU launcher: indptr and the packed values exact; every cell past indptr[R] of indices_out, and
// the guards past both buffers, keep their preset -1 bytes. Shapes cross the schedule's boundaries
// (one contiguous row range per workgroup of a grid of CU count workgroups, 1024-row tiles,
// 512-entry copy segments, 64-lane waves), with clamped lengths, the num_kv map, strided and
// misaligned dense rows, empty rows and an empty total.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
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

constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();

struct Packed {
  Guarded<int32_t> indices, indptr;
  Packed(int64_t rows, int64_t width) : indices(size_t(rows * width)), indptr(size_t(rows + 1)) {}
};

void expect_matches_cpu(const Launchers& hip, const std::vector<int32_t>& dense, int64_t rows, int64_t width,
                        int64_t pitch, const std::vector<int32_t>& lengths, int64_t num_kv, int32_t fill) {
  Packed want(rows, width), got(rows, width);
  cpu::ragged_pack({dense.data(), pitch, lengths.data(), want.indices.ptr(), want.indptr.ptr(), rows, width,
                    num_kv, fill},
                   kSerial);
  ASSERT_EQ(hip.ragged_pack({dense.data(), pitch, lengths.data(), got.indices.ptr(), got.indptr.ptr(), rows,
                             width, num_kv, fill},
                            nullptr),
            0);
  ASSERT_EQ(hip_cpu::synchronize(), 0);
  // The CPU writes exactly the extent, so equal whole buffers (preset cells included) mean the
  // HIP kernel wrote the same values and nothing past indptr[R].
  EXPECT_EQ(got.indptr.body(), want.indptr.body());
  EXPECT_EQ(got.indices.body(), want.indices.body());
  EXPECT_TRUE(got.indices.guards_intact() && got.indptr.guards_intact()) << "wrote past a buffer";
}

class HipCpuRaggedPack : public ::testing::TestWithParam<Launchers> {};

TEST_P(HipCpuRaggedPack, ByHand) {
  const std::vector<int32_t> dense = {5, -1, 7, 1, 2, 3, 9, 9, 9, 4, 8, -1, 6, 0, 2};
  const std::vector<int32_t> lengths = {2, 0, -4, 99, 1};
  expect_matches_cpu(GetParam(), dense, 5, 3, 3, lengths, -1, -1);
  expect_matches_cpu(GetParam(), dense, 5, 3, 3, lengths, 7, -9);
}

TEST_P(HipCpuRaggedPack, RandomRows) {
  std::mt19937 gen(3);
  for (auto [rows, width, pitch] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1}, {7, 3, 3}, {33, 65, 70},
                                    {300, 17, 20}, {1000, 64, 64}, {64, 2048, 2051}}) {
    std::vector<int32_t> dense(size_t(rows * pitch));
    for (auto& v : dense) v = int32_t(gen() % 2000) - 100;
    std::vector<int32_t> lengths(static_cast<size_t>(rows));
    for (auto& n : lengths) n = int32_t(gen() % (width + 8)) - 4;
    for (int64_t num_kv : {int64_t(-1), int64_t(0), int64_t(1000), int64_t(1) << 40}) {
      SCOPED_TRACE(::testing::Message() << rows << "x" << width << " pitch " << pitch << " num_kv " << num_kv);
      expect_matches_cpu(GetParam(), dense, rows, width, pitch, lengths, num_kv, kIntMin);
    }
  }
}

TEST_P(HipCpuRaggedPack, ScheduleBoundaries) {
  // Rows just below, at and past the grid (gfx950 256 CUs, gfx942 304), more than one tile per
  // workgroup, R = 1 with a row of several segments, every length <= 0.
  std::mt19937 gen(5);
  for (auto [rows, width, pitch] : {std::tuple<int64_t, int64_t, int64_t>{255, 9, 9}, {256, 9, 11}, {257, 5, 5},
                                    {303, 3, 3}, {304, 3, 4}, {305, 7, 7}, {256 * 1024 + 1, 1, 1},
                                    {1, 3000, 3001}, {2, 1025, 1025}}) {
    std::vector<int32_t> dense(size_t(rows * pitch));
    for (auto& v : dense) v = int32_t(gen() % 2000) - 100;
    std::vector<int32_t> lengths(static_cast<size_t>(rows));
    for (auto& n : lengths) n = int32_t(gen() % (width + 4)) - 2;
    for (size_t r = 0; r < lengths.size(); r += 3) lengths[r] = 0;
    SCOPED_TRACE(::testing::Message() << rows << "x" << width << " pitch " << pitch);
    expect_matches_cpu(GetParam(), dense, rows, width, pitch, lengths, 1000, -7);
    if (rows == 257) {
      for (auto& n : lengths) n = -int32_t(gen() % 3);
      expect_matches_cpu(GetParam(), dense, rows, width, pitch, lengths, -1, -1);
    }
  }
}

TEST_P(HipCpuRaggedPack, MisalignedRows) {
  // Dense rows starting 0-3 dwords past a 16-byte boundary (pitch 4k + 1), lengths of every
  // residue mod 4: the dwordx4 path (source and destination co-aligned) and the dword path.
  std::mt19937 gen(9);
  const int64_t rows = 300, width = 70, pitch = 73;
  std::vector<int32_t> dense(size_t(rows * pitch));
  for (auto& v : dense) v = int32_t(gen() % 5000);
  std::vector<int32_t> lengths(static_cast<size_t>(rows));
  for (auto& n : lengths) n = int32_t(gen() % (width + 1));
  expect_matches_cpu(GetParam(), dense, rows, width, pitch, lengths, -1, -1);
  for (auto& n : lengths) n = n / 4 * 4;
  expect_matches_cpu(GetParam(), dense, rows, width, pitch, lengths, 4000, kIntMin);
}

TEST_P(HipCpuRaggedPack, ZeroRowsAndZeroWidth) {
  expect_matches_cpu(GetParam(), {}, 0, 8, 8, {}, -1, -1);
  expect_matches_cpu(GetParam(), {}, 3, 0, 0, {3, 0, -1}, -1, -1);
}

INSTANTIATE_TEST_SUITE_P(Archs, HipCpuRaggedPack, ::testing::ValuesIn(hip_cpu::kArchs),
                         [](const auto& info) { return std::string(info.param.arch); });

}  // namespace
}  // namespace dsv4::test
