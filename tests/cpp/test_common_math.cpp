// Shared torch-free math: bf16 conversions, the top-k order key, row windows, the ragged-pack map and
// the ragged-pack schedule (row ranges, prefix sums, segment shapes) of the CUDA and HIP kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "common/bf16.h"
#include "common/topk_math.h"

namespace dsv4 {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kIntMax = std::numeric_limits<int32_t>::max();

uint16_t bf16_bits_of(uint32_t f32_bits) { return to_bf16(bits_to_float(f32_bits)).bits; }

bool is_bf16_nan(uint16_t b) { return (b & 0x7fffu) > 0x7f80u; }

// Independent round-to-nearest-even in double: pick the nearer of the two bf16 neighbours.
uint16_t bf16_rne_reference(float x) {
  const uint32_t u = float_to_bits(x);
  const uint32_t lo = u & 0xffff0000u;
  const double below = double(bits_to_float(lo));
  const double above = (lo & 0x7fffffffu) == 0x7f7f0000u
                           ? std::copysign(std::ldexp(1.0, 128), double(x))  // next step is inf
                           : double(bits_to_float(lo + 0x10000u));
  const double d_lo = std::fabs(double(x) - below), d_hi = std::fabs(above - double(x));
  uint32_t pick = lo;
  if (d_hi < d_lo || (d_hi == d_lo && ((lo >> 16) & 1u))) pick = lo + 0x10000u;
  return uint16_t(pick >> 16);
}

TEST(Bf16, ExactValuesAndSignedZero) {
  EXPECT_EQ(to_bf16(1.0f).bits, 0x3f80);
  EXPECT_EQ(to_bf16(-2.0f).bits, 0xc000);
  EXPECT_EQ(to_bf16(0.0f).bits, 0x0000);
  EXPECT_EQ(to_bf16(-0.0f).bits, 0x8000);
  EXPECT_EQ(to_float(bf16{0x3f80}), 1.0f);
  EXPECT_EQ(float_to_bits(to_float(bf16{0x8000})), 0x80000000u);
}

TEST(Bf16, RoundsToNearestEvenOnTies) {
  EXPECT_EQ(bf16_bits_of(0x3f808000u), 0x3f80);  // halfway, 0x3f80 even: down
  EXPECT_EQ(bf16_bits_of(0x3f818000u), 0x3f82);  // halfway, 0x3f81 odd: up
  EXPECT_EQ(bf16_bits_of(0x3f808001u), 0x3f81);  // just above halfway
  EXPECT_EQ(bf16_bits_of(0x3f807fffu), 0x3f80);  // just below halfway
  EXPECT_EQ(bf16_bits_of(0xbf808000u), 0xbf80);  // negative ties, same rule on the magnitude
  EXPECT_EQ(bf16_bits_of(0xbf818000u), 0xbf82);
  EXPECT_EQ(bf16_bits_of(0x3fffffffu), 0x4000);  // carry into the exponent
  EXPECT_EQ(bf16_bits_of(0x00008000u), 0x0000);  // subnormal tie to even (zero)
  EXPECT_EQ(bf16_bits_of(0x00018000u), 0x0002);
  EXPECT_EQ(bf16_bits_of(0x80008000u), 0x8000);  // keeps the sign of zero
}

TEST(Bf16, InfinityAndOverflow) {
  EXPECT_EQ(to_bf16(kInf).bits, 0x7f80);
  EXPECT_EQ(to_bf16(-kInf).bits, 0xff80);
  EXPECT_EQ(to_bf16(std::numeric_limits<float>::max()).bits, 0x7f80);    // rounds up to inf
  EXPECT_EQ(to_bf16(-std::numeric_limits<float>::max()).bits, 0xff80);
  EXPECT_EQ(bf16_bits_of(0x7f7f8000u), 0x7f80);  // halfway to inf from odd 0x7f7f: inf
  EXPECT_EQ(bf16_bits_of(0x7f7f7fffu), 0x7f7f);  // below halfway: largest finite bf16
}

TEST(Bf16, NanStaysQuietNanWithSign) {
  for (uint32_t nan : {0x7fc00000u, 0x7f800001u, 0x7f80ffffu, 0x7fffffffu, 0xffc00000u, 0xff800001u}) {
    const uint16_t b = bf16_bits_of(nan);
    EXPECT_TRUE(is_bf16_nan(b)) << std::hex << nan << " -> " << b;  // truncation would give inf here
    EXPECT_TRUE(b & 0x0040u) << "quiet bit";
    EXPECT_EQ(b & 0x8000u, (nan >> 16) & 0x8000u) << "sign";
    EXPECT_TRUE(std::isnan(to_float(bf16{b})));
  }
}

TEST(Bf16, EveryBf16RoundTrips) {
  for (uint32_t b = 0; b <= 0xffffu; ++b) {
    const float f = to_float(bf16{uint16_t(b)});
    EXPECT_EQ(float_to_bits(f), b << 16);
    if (is_bf16_nan(uint16_t(b))) {
      EXPECT_TRUE(is_bf16_nan(to_bf16(f).bits));
    } else {
      ASSERT_EQ(to_bf16(f).bits, b) << std::hex << b;
    }
  }
}

TEST(Bf16, MatchesDoubleReferenceOnRandomBits) {
  std::mt19937 gen(1);
  for (int i = 0; i < 1000000; ++i) {
    const uint32_t u = gen();
    const float x = bits_to_float(u);
    if (std::isnan(x)) continue;
    ASSERT_EQ(to_bf16(x).bits, bf16_rne_reference(x)) << std::hex << u;
  }
}

// +inf > finite > -inf > NaN, -0.0 == +0.0, listed in increasing order.
TEST(TopKKey, TotalOrder) {
  const float denorm = std::numeric_limits<float>::denorm_min();
  const float fmax = std::numeric_limits<float>::max();
  const std::vector<float> ascending = {-kInf, -fmax, -1e30f, -65504.0f, -1.0f, -denorm, 0.0f,
                                        denorm, 1e-30f, 1.0f, 1.0000001f, 65505.0f, 1e30f, fmax, kInf};
  for (size_t i = 1; i < ascending.size(); ++i)
    EXPECT_LT(topk_key(ascending[i - 1]), topk_key(ascending[i])) << ascending[i - 1] << " < " << ascending[i];
  EXPECT_EQ(topk_key(-0.0f), topk_key(0.0f));
  for (uint32_t nan : {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xffffffffu, 0x7fffffffu}) {
    EXPECT_EQ(topk_key(bits_to_float(nan)), 0u) << std::hex << nan;
    EXPECT_LT(topk_key(bits_to_float(nan)), topk_key(-kInf));
  }
}

TEST(TopKKey, AgreesWithFloatComparisonOnRandomPairs) {
  std::mt19937 gen(2);
  for (int i = 0; i < 200000; ++i) {
    const float a = bits_to_float(gen()), b = bits_to_float(gen());
    if (std::isnan(a) || std::isnan(b)) continue;
    ASSERT_EQ(a < b, topk_key(a) < topk_key(b)) << a << " vs " << b;
    ASSERT_EQ(a == b, topk_key(a) == topk_key(b)) << a << " vs " << b;
  }
}

// The warp-per-row key: topk_key's value for every number (signed zeros, subnormals, infinities),
// 1 for every NaN, so the same order on every pair, and 0 stays free for entries past a row.
TEST(TopKRowKey, SameOrderAsTopKKeyWithNaNAtOne) {
  std::mt19937 gen(9);
  std::vector<float> values = {kInf, -kInf, 0.0f, -0.0f, std::numeric_limits<float>::denorm_min(),
                               -std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max(),
                               -std::numeric_limits<float>::max(), 1.0f, -1.0f};
  for (uint32_t nan : {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xffffffffu, 0x7fffffffu})
    values.push_back(bits_to_float(nan));
  for (int i = 0; i < 2000; ++i) values.push_back(bits_to_float(gen()));
  for (const float a : values) {
    ASSERT_EQ(topk_row_key(a), std::isnan(a) ? 1u : topk_key(a)) << a;  // the same key but NaN's
    for (const float b : values) {
      ASSERT_EQ(topk_key(a) < topk_key(b), topk_row_key(a) < topk_row_key(b)) << a << " vs " << b;
      ASSERT_EQ(topk_key(a) == topk_key(b), topk_row_key(a) == topk_row_key(b)) << a << " vs " << b;
    }
  }
  EXPECT_EQ(topk_row_key(-0.0f), topk_row_key(0.0f));
  EXPECT_EQ(topk_row_key(bits_to_float(0xffc00000u)), 1u);
  EXPECT_GT(topk_row_key(-kInf), 1u);
}

TEST(TopKKey, RankKeyValueFirstThenLowestIndex) {
  EXPECT_GT(topk_rank_key(1.0f, 0), topk_rank_key(1.0f, 1));  // tie: lower index ranks higher
  EXPECT_GT(topk_rank_key(1.0f, 5), topk_rank_key(1.0f, kIntMax));
  EXPECT_GT(topk_rank_key(1.0000001f, kIntMax), topk_rank_key(1.0f, 0));  // value dominates
  EXPECT_GT(topk_rank_key(-kInf, 1000), topk_rank_key(bits_to_float(0x7fc00000u), 0));
  EXPECT_EQ(topk_rank_key(-0.0f, 3), topk_rank_key(0.0f, 3));
}

// The streaming top-k keeps values with x >= topk_key_floor(bin edge): that must be exactly the
// keys >= the edge, for every x (NaN, infinities, signed zeros, subnormals) and every key > 0 (bin
// edges of the first digit, arbitrary keys, the keys of the values themselves).
TEST(TopKKeyFloor, FloatCompareEqualsKeyCompare) {
  std::mt19937 gen(5);
  std::vector<float> values = {kInf, -kInf, 0.0f, -0.0f, bits_to_float(0x7fc00000u), bits_to_float(0xffc00000u),
                               bits_to_float(0x7f800001u), std::numeric_limits<float>::denorm_min(),
                               -std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max(),
                               -std::numeric_limits<float>::max(), 1.0f, -1.0f};
  for (int i = 0; i < 3000; ++i) values.push_back(bits_to_float(gen()));
  std::vector<uint32_t> keys;
  for (uint32_t d = 1; d < uint32_t(kTopkBins); ++d) keys.push_back(d << topk_digit_shift(0));
  for (int i = 0; i < 3000; ++i) keys.push_back(gen() | 1u);
  for (const float v : values)
    if (topk_key(v) > 0) keys.push_back(topk_key(v));
  for (const uint32_t key : keys) {
    const float f = topk_key_floor(key);
    ASSERT_EQ(std::isnan(f), key > topk_key(kInf)) << std::hex << key;  // above +inf's key: nothing reaches it
    // The neighbours of the threshold itself, then every listed value.
    for (const float x : {f, std::nextafter(f, -kInf), std::nextafter(f, kInf)})
      ASSERT_EQ(x >= f, topk_key(x) >= key) << std::hex << key << " x " << x;
    for (const float x : values) ASSERT_EQ(x >= f, topk_key(x) >= key) << std::hex << key << " x " << x;
  }
}

TEST(TopKSampleRank, BoundsAndTheWholeRow) {
  EXPECT_EQ(topk_sample_rank(2048, 32768, 32768), 2048u);  // the sample is the row: exact
  EXPECT_EQ(topk_sample_rank(7, 50, 40), 7u);
  EXPECT_EQ(topk_sample_rank(2048, 8192, 32768), 512u + 68u + 8u);  // 512 expected, 3 sigma = 67.9
  EXPECT_EQ(topk_sample_rank(2048, 3, 32768), 3u);  // never above the sample
  for (uint32_t s = 1; s < 5000; s += 7) {
    const uint32_t r = topk_sample_rank(1024, s, 131072);
    EXPECT_LE(r, s);
    EXPECT_GE(double(r), std::min(double(s), 1024.0 * s / 131072.0));
  }
}

TEST(TopKWindow, PrefillClampsToWidth) {
  const int32_t starts[] = {5, -6, 30, 12, 45, -9, 38};
  const int32_t ends[] = {25, 10, 99, 4, 50, -2, 40};
  const int64_t want_start[] = {5, 0, 30, 12, 40, 0, 38}, want_len[] = {20, 10, 10, 0, 0, 0, 2};
  TopKParams p{};
  p.width = 40;
  p.row_starts = starts;
  p.row_ends = ends;
  for (int r = 0; r < 7; ++r) {
    int64_t s = -1, n = -1;
    topk_row_window(p, r, &s, &n);
    EXPECT_EQ(s, want_start[r]) << r;
    EXPECT_EQ(n, want_len[r]) << r;
  }
}

TEST(TopKWindow, DecodeOneAndTwoDimensionalSeqLens) {
  TopKParams p{};
  p.width = 50;
  p.next_n = 4;
  const int32_t one_d[] = {5, 1, 100};
  const int64_t want_1d[] = {2, 3, 4, 5, 0, 0, 0, 1, 50, 50, 50, 50};
  p.row_ends = one_d;
  for (int r = 0; r < 12; ++r) {
    int64_t s = -1, n = -1;
    topk_row_window(p, r, &s, &n);
    EXPECT_EQ(s, 0);
    EXPECT_EQ(n, want_1d[r]) << r;
  }
  const int32_t two_d[] = {0, 9, -3, 70, 1, 7, 8, 2};
  const int64_t want_2d[] = {0, 9, 0, 50, 1, 7, 8, 2};
  p.row_ends = two_d;
  p.seq_lens_2d = true;
  for (int r = 0; r < 8; ++r) {
    int64_t s = -1, n = -1;
    topk_row_window(p, r, &s, &n);
    EXPECT_EQ(s, 0);
    EXPECT_EQ(n, want_2d[r]) << r;
  }
}

TEST(RaggedMap, NegativeNumKvCopiesEverything) {
  for (int32_t v : {kIntMin, -1, 0, 7, kIntMax}) {
    EXPECT_EQ(ragged_map(v, -1, 99), v);
    EXPECT_EQ(ragged_map(v, -12345, 99), v);
  }
}

TEST(RaggedMap, OutOfRangeBecomesFill) {
  EXPECT_EQ(ragged_map(0, 0, -1), -1);  // num_kv = 0: nothing is in range
  EXPECT_EQ(ragged_map(-1, 10, 77), 77);
  EXPECT_EQ(ragged_map(kIntMin, 10, 77), 77);
  EXPECT_EQ(ragged_map(0, 10, 77), 0);
  EXPECT_EQ(ragged_map(9, 10, 77), 9);
  EXPECT_EQ(ragged_map(10, 10, 77), 77);
  EXPECT_EQ(ragged_map(kIntMax, 10, kIntMin), kIntMin);
  EXPECT_EQ(ragged_map(kIntMax, int64_t(1) << 40, -1), kIntMax);  // num_kv past int32
  EXPECT_EQ(ragged_map(-5, int64_t(1) << 40, -1), -1);
}

TEST(RaggedMap, LengthClampsToWidth) {
  const int32_t lengths[] = {-4, 0, 3, 8, 9, kIntMax, kIntMin};
  const int64_t want[] = {0, 0, 3, 8, 8, 8, 0};
  RaggedPackParams p{};
  p.lengths = lengths;
  p.width = 8;
  for (int r = 0; r < 7; ++r) EXPECT_EQ(ragged_length(p, r), want[r]) << r;
}

TEST(RaggedSchedule, BlockRangesTileTheRowsEvenly) {
  // R below, at, just past and far past the block count, R not a multiple of it, R = 0 and 1.
  for (int64_t blocks : {int64_t(1), int64_t(3), int64_t(132), int64_t(264)}) {
    for (int64_t rows : {int64_t(0), int64_t(1), blocks - 1, blocks, blocks + 1, 2 * blocks + 5, int64_t(8192),
                         int64_t(65536), int64_t(2147483647)}) {
      if (rows < 0) continue;
      SCOPED_TRACE(::testing::Message() << rows << " rows, " << blocks << " blocks");
      const RaggedSchedule s = ragged_schedule(rows, blocks);
      EXPECT_EQ(ragged_block_begin(s, 0), 0);
      EXPECT_EQ(ragged_block_begin(s, blocks), rows);
      const int64_t lo = rows / blocks;
      for (int64_t b = 0; b < blocks; ++b) {
        const int64_t n = ragged_block_begin(s, b + 1) - ragged_block_begin(s, b);
        ASSERT_TRUE(n == lo || n == lo + 1) << "block " << b << " owns " << n;
      }
    }
  }
}

TEST(RaggedSchedule, BlocksOfALaunch) {
  EXPECT_EQ(ragged_pack_blocks(0, 132), 1);  // block 0 still writes indptr[0]
  EXPECT_EQ(ragged_pack_blocks(1, 132), 1);
  EXPECT_EQ(ragged_pack_blocks(131, 132), 131);
  EXPECT_EQ(ragged_pack_blocks(132, 132), 132);
  EXPECT_EQ(ragged_pack_blocks(65536, 132), 132);
  EXPECT_EQ(ragged_pack_blocks(65536, 0), 1);
}

TEST(RaggedSchedule, SegmentsAndAlignment) {
  EXPECT_EQ(ragged_segments(0, 256), 0);
  EXPECT_EQ(ragged_segments(1, 256), 1);
  EXPECT_EQ(ragged_segments(256, 256), 1);
  EXPECT_EQ(ragged_segments(257, 256), 2);
  alignas(16) int32_t buf[8] = {};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(ragged_align_head(buf + i), (4 - i % 4) % 4) << i;
  EXPECT_TRUE(ragged_same_alignment(buf + 1, buf + 5));
  EXPECT_FALSE(ragged_same_alignment(buf + 1, buf + 6));
}

TEST(RaggedSchedule, SegmentShapeCoversEveryEntryOnce) {
  // For each source alignment and length: the int32 head, the 16-byte body and the int32 tail
  // that lanes 0-5 take cover [0, n) exactly once, and the body starts 16-byte aligned.
  alignas(16) int32_t buf[80] = {};
  for (int a = 0; a < 4; ++a) {
    for (int n = 1; n <= 70; ++n) {
      const RaggedSegmentShape s = ragged_segment_shape(buf + a, n);
      std::vector<int> seen(size_t(n), 0);
      for (int q = 0; q < s.quads; ++q)
        for (int j = 0; j < 4; ++j) ++seen[size_t(s.head + 4 * q + j)];
      for (int lane = 0; lane < 64; ++lane) {
        const int e = ragged_segment_edge(s, n, lane);
        if (e >= 0) ++seen[size_t(e)];
        if (lane >= 6) {
          EXPECT_EQ(e, -1);
        }
      }
      EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), n) << "alignment " << a << ", n " << n;
      if (s.head == ragged_align_head(buf + a)) {
        EXPECT_EQ(ragged_align_head(buf + a + s.head), 0);
      }
    }
  }
}

TEST(RaggedSchedule, PrefixSharesSumToTheClampedTotal) {
  // Every [lo, hi) of a buffer at every int32 alignment, split over 5 "threads" with batches of
  // 2 vectors: the shares add up to the clamped sum, whatever the head and tail.
  constexpr int kThreads = 5;
  alignas(16) int32_t buf[64 + 3];
  std::mt19937 gen(7);
  for (auto& v : buf) v = int32_t(gen() % 40) - 10;
  const auto load4 = [](const int32_t* q, int32_t(&out)[4]) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(q) % 16, 0u);
    for (int j = 0; j < 4; ++j) out[j] = q[j];
  };
  for (int a = 0; a < 4; ++a) {
    for (int64_t lo = 0; lo <= 40; lo += 3) {
      for (int64_t hi = lo; hi <= 63; ++hi) {
        int64_t want = 0;
        for (int64_t r = lo; r < hi; ++r) want += std::clamp(buf[a + r], 0, 20);
        int64_t got = 0;
        for (int t = 0; t < kThreads; ++t) got += ragged_sum_lengths<kThreads, 2>(buf + a, lo, hi, 20, t, load4);
        ASSERT_EQ(got, want) << "alignment " << a << " [" << lo << ", " << hi << ")";
      }
    }
  }
}

}  // namespace
}  // namespace dsv4
