// Comparisons of a GPU backend's launcher outputs (CUDA, or HIP on the HIP CPU runtime) with the
// CPU launchers', and output buffers with guard cells past their extent.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "common/bf16.h"

namespace dsv4::test {

// |a - b| within `ulps` bf16 ulps of the larger magnitude plus the fp32 accumulation error of the
// weighted sums (relative to the output's largest magnitude): both backends are within 1 ulp of
// the exact value up to that error, which dominates where the streams cancel.
inline void expect_bf16_near(const std::vector<bf16>& a, const std::vector<bf16>& b, float ulps) {
  ASSERT_EQ(a.size(), b.size());
  float scale = 0.0f;
  for (const bf16& v : b) scale = std::max(scale, std::fabs(to_float(v)));
  for (size_t i = 0; i < a.size(); ++i) {
    const float x = to_float(a[i]), y = to_float(b[i]);
    const float mag = std::max(std::fabs(x), std::fabs(y));
    ASSERT_LE(std::fabs(x - y), ulps * std::ldexp(1.0f, std::ilogb(std::max(mag, 1e-30f)) - 7) + 1e-5f * scale)
        << "element " << i << ": " << x << " vs " << y;
  }
}

// fp32 mixes: each backend is within 1e-5 relative plus 1e-6 absolute of float64 (pytest checks
// that), so they differ by at most twice that.
inline void expect_float_near(const std::vector<float>& a, const std::vector<float>& b, float rtol) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i)
    ASSERT_NEAR(a[i], b[i], rtol * std::fabs(b[i]) + 2e-6f) << "element " << i;
}

// `n` elements a launcher writes, every byte preset to 0xff (bf16 and fp32 NaN, int32 -1), then
// kGuard cells that must keep that pattern: a write past the extent shows as a changed guard.
template <class T>
struct Guarded {
  static constexpr size_t kGuard = 64;
  std::vector<T> cells;
  size_t n;

  explicit Guarded(size_t count) : cells(count + kGuard), n(count) {
    std::memset(static_cast<void*>(cells.data()), 0xff, cells.size() * sizeof(T));
  }
  T* ptr() { return cells.data(); }
  std::vector<T> body() const { return {cells.begin(), cells.begin() + ptrdiff_t(n)}; }
  bool guards_intact() const { return preset(n, n + kGuard); }
  bool untouched() const { return preset(0, n + kGuard); }

 private:
  bool preset(size_t from, size_t to) const {
    const auto* bytes = reinterpret_cast<const unsigned char*>(cells.data());
    return std::all_of(bytes + from * sizeof(T), bytes + to * sizeof(T), [](unsigned char c) { return c == 0xff; });
  }
};

}  // namespace dsv4::test
