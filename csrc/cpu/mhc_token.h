// Per-token building blocks of the CPU mHC ops. The reductions use a fixed blocked order (16 lanes
// inside 256-element chunks, chunk sums added in sequence): it vectorises, keeps fp32 error near
// that of a pairwise sum, and depends only on the length, so a token's result never depends on
// the batch it came in.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../common/bf16.h"
#include "../common/mhc_math.h"

namespace dsv4::cpu {

inline float blocked_dot(const float* a, const float* b, int64_t len) {
  constexpr int kLanes = 16;
  constexpr int64_t kChunk = 256;
  float total = 0.0f;
  for (int64_t c0 = 0; c0 < len; c0 += kChunk) {
    const int64_t m = std::min(kChunk, len - c0);
    const float* pa = a + c0;
    const float* pb = b + c0;
    float lane[kLanes] = {};
    int64_t i = 0;
    for (; i + kLanes <= m; i += kLanes)
      for (int l = 0; l < kLanes; ++l) lane[l] += pa[i + l] * pb[i + l];
    for (int l = 0; i < m; ++i, ++l) lane[l] += pa[i] * pb[i];
    for (int w = kLanes / 2; w > 0; w /= 2)
      for (int l = 0; l < w; ++l) lane[l] += lane[l + w];
    total += lane[0];
  }
  return total;
}

inline void upcast(const bf16* src, int64_t len, float* dst) {
  for (int64_t i = 0; i < len; ++i) dst[i] = to_float(src[i]);
}

// G[m] = sum_k x[k] * fn[m, k] for m < rows.
inline void project(const float* x, const float* fn, int rows, int64_t k, float* g) {
  for (int m = 0; m < rows; ++m) g[m] = blocked_dot(x, fn + int64_t(m) * k, k);
}

// layer_input[d] = bf16(sum_i pre[i] * x[i, d]), or with norm_weight the fused RMSNorm of §3.5:
// ss from the unrounded y, the scaled value from bf16(y). `y` is D floats of scratch.
inline void collapse_streams(const float* x, const float* pre, int n, int64_t hidden,
                             const bf16* norm_weight, float norm_eps, float* y, bf16* out) {
  for (int64_t d = 0; d < hidden; ++d) y[d] = 0.0f;
  for (int i = 0; i < n; ++i) {
    const float* xi = x + int64_t(i) * hidden;
    const float w = pre[i];
    for (int64_t d = 0; d < hidden; ++d) y[d] += w * xi[d];
  }
  if (norm_weight == nullptr) {
    for (int64_t d = 0; d < hidden; ++d) out[d] = to_bf16(y[d]);
    return;
  }
  const float rs = rms_factor(blocked_dot(y, y, hidden), hidden, norm_eps);
  for (int64_t d = 0; d < hidden; ++d)
    out[d] = to_bf16(to_float(to_bf16(y[d])) * rs * to_float(norm_weight[d]));
}

// The model's final RMSNorm on a stored bf16 row, in place (spec §4.6): with yb = f(row[d]),
// row[d] = bf16(yb * rsqrt(sum yb^2 / D + eps) * f(w[d])). `y` is D floats of scratch.
inline void rms_norm_stored(bf16* row, int64_t hidden, const bf16* weight, float eps, float* y) {
  upcast(row, hidden, y);
  const float rs = rms_factor(blocked_dot(y, y, hidden), hidden, eps);
  for (int64_t d = 0; d < hidden; ++d) row[d] = to_bf16(y[d] * rs * to_float(weight[d]));
}

// Scratch for one worker: the upcast token and one D-row.
struct TokenScratch {
  std::vector<float> x, y;
  TokenScratch(int n, int64_t hidden) : x(size_t(n) * size_t(hidden)), y(size_t(hidden)) {}
};

// Tokens per parallel chunk: about 64K elements of residual each.
inline int64_t token_grain(int n, int64_t hidden) {
  return std::max<int64_t>(1, 65536 / std::max<int64_t>(1, int64_t(n) * hidden));
}

}  // namespace dsv4::cpu
