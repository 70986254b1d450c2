// dsv4::cpu::ragged_pack (shared/spec/topk.md §6): CSR prefix copy, clamped lengths, num_kv map,
// untouched tails, strided dense rows, serial == threaded.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

#include "cpu/cpu_ops.h"
#include "test_util.h"

namespace dsv4 {
namespace {

using test::kSerial;
using test::kThreaded;

constexpr int32_t kSentinel = 0x7fffffff;
constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();

struct Packed {
  std::vector<int32_t> indices, indptr;  // whole buffers, spare elements included
};

// Packs `rows` rows of `width` from dense (row pitch `pitch`) into sentinel-filled buffers with
// `spare` extra elements each.
Packed pack(const std::vector<int32_t>& dense, int64_t rows, int64_t width, int64_t pitch,
            const std::vector<int32_t>& lengths, int64_t num_kv, int32_t fill, const cpu::Executor& ex,
            int spare = 5) {
  Packed out{std::vector<int32_t>(size_t(rows * width + spare), kSentinel),
             std::vector<int32_t>(size_t(rows + 1 + spare), kSentinel)};
  RaggedPackParams p{dense.data(), pitch, lengths.data(), out.indices.data(), out.indptr.data(),
                     rows, width, num_kv, fill};
  cpu::ragged_pack(p, ex);
  return out;
}

// Straightforward reference: indptr and the packed values (no spare).
Packed reference(const std::vector<int32_t>& dense, int64_t rows, int64_t width, int64_t pitch,
                 const std::vector<int32_t>& lengths, int64_t num_kv, int32_t fill) {
  Packed ref{{}, {0}};
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t n = std::clamp<int64_t>(lengths[r], 0, width);
    for (int64_t j = 0; j < n; ++j) {
      const int64_t v = dense[r * pitch + j];
      ref.indices.push_back(num_kv >= 0 && (v < 0 || v >= num_kv) ? fill : int32_t(v));
    }
    ref.indptr.push_back(int32_t(ref.indices.size()));
  }
  return ref;
}

void expect_packed(const Packed& got, const Packed& want) {
  const size_t nnz = want.indices.size(), rows1 = want.indptr.size();
  EXPECT_EQ(std::vector<int32_t>(got.indptr.begin(), got.indptr.begin() + rows1), want.indptr);
  EXPECT_EQ(std::vector<int32_t>(got.indices.begin(), got.indices.begin() + nnz), want.indices);
  EXPECT_TRUE(std::all_of(got.indices.begin() + nnz, got.indices.end(), [](int32_t v) { return v == kSentinel; }))
      << "wrote past indptr[R]";
  EXPECT_TRUE(std::all_of(got.indptr.begin() + rows1, got.indptr.end(), [](int32_t v) { return v == kSentinel; }))
      << "wrote past indptr_out[R]";
}

TEST(CpuRaggedPack, ByHand) {
  const std::vector<int32_t> dense = {5, -1, 7, 1, 2, 3, 9, 9, 9, 4, 8, -1, 6, 0, 2};
  const std::vector<int32_t> lengths = {2, 0, -4, 99, 1};
  const Packed got = pack(dense, 5, 3, 3, lengths, -1, -1, kSerial, 2);
  EXPECT_EQ(got.indptr, (std::vector<int32_t>{0, 2, 2, 2, 5, 6, kSentinel, kSentinel}));
  EXPECT_EQ(std::vector<int32_t>(got.indices.begin(), got.indices.begin() + 6),
            (std::vector<int32_t>{5, -1, 4, 8, -1, 6}));  // a prefix copy: -1 inside is kept
  const Packed mapped = pack(dense, 5, 3, 3, lengths, 7, -9, kSerial, 2);
  EXPECT_EQ(std::vector<int32_t>(mapped.indices.begin(), mapped.indices.begin() + 6),
            (std::vector<int32_t>{5, -9, 4, -9, -9, 6}));
}

TEST(CpuRaggedPack, RandomRowsMatchReference) {
  std::mt19937 gen(3);
  for (auto [rows, width, pitch] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1}, {7, 3, 3}, {300, 17, 20},
                                    {1000, 64, 64}, {64, 2048, 2051}}) {
    std::vector<int32_t> dense(size_t(rows * pitch));
    for (auto& v : dense) v = int32_t(gen() % 2000) - 100;
    std::vector<int32_t> lengths(rows);
    for (auto& n : lengths) n = int32_t(gen() % (width + 8)) - 4;
    for (int64_t num_kv : {int64_t(-1), int64_t(0), int64_t(1000), int64_t(1) << 40}) {
      SCOPED_TRACE(testing::Message() << rows << "x" << width << " pitch " << pitch << " num_kv " << num_kv);
      const Packed want = reference(dense, rows, width, pitch, lengths, num_kv, kIntMin);
      const Packed serial = pack(dense, rows, width, pitch, lengths, num_kv, kIntMin, kSerial);
      expect_packed(serial, want);
      const Packed threaded = pack(dense, rows, width, pitch, lengths, num_kv, kIntMin, kThreaded);
      EXPECT_EQ(serial.indices, threaded.indices);
      EXPECT_EQ(serial.indptr, threaded.indptr);
    }
  }
}

TEST(CpuRaggedPack, PaddingColumnsAreNotRead) {
  // Row pitch 6 for width 4: columns 4 and 5 hold -777 and must never be copied.
  std::vector<int32_t> dense;
  for (int r = 0; r < 50; ++r)
    for (int j = 0; j < 6; ++j) dense.push_back(j < 4 ? r * 10 + j : -777);
  std::vector<int32_t> lengths(50, 100);
  const Packed got = pack(dense, 50, 4, 6, lengths, -1, -1, kThreaded);
  expect_packed(got, reference(dense, 50, 4, 6, lengths, -1, -1));
  EXPECT_EQ(std::count(got.indices.begin(), got.indices.end(), -777), 0);
}

TEST(CpuRaggedPack, ZeroRowsWritesOnlyIndptrZero) {
  const std::vector<int32_t> none;
  const Packed got = pack(none, 0, 8, 8, none, -1, -1, kSerial, 3);
  EXPECT_EQ(got.indptr, (std::vector<int32_t>{0, kSentinel, kSentinel, kSentinel}));
  EXPECT_EQ(got.indices, std::vector<int32_t>(3, kSentinel));
}

TEST(CpuRaggedPack, ZeroWidth) {
  const std::vector<int32_t> lengths = {3, 0, -1};
  const Packed got = pack({}, 3, 0, 0, lengths, -1, -1, kSerial, 2);
  EXPECT_EQ(got.indptr, (std::vector<int32_t>{0, 0, 0, 0, kSentinel, kSentinel}));
  EXPECT_EQ(got.indices, std::vector<int32_t>(2, kSentinel));
}

}  // namespace
}  // namespace dsv4
