// Helpers shared by the CPU launcher tests: a std::thread parallel_for executor (to show results do
// not depend on how the work is split) and small input generators.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include "common/bf16.h"
#include "cpu/executor.h"

namespace dsv4::test {

// Splits [begin, end) into uneven chunks of at least `grain` items, each on its own thread.
inline void threaded_parallel_for(int64_t begin, int64_t end, int64_t grain, cpu::Executor::Body body,
                                  void* ctx) {
  const int64_t n = end - begin;
  const int64_t chunk = std::max<int64_t>(std::max<int64_t>(grain, 1), (n + 6) / 7);
  std::vector<std::thread> threads;
  for (int64_t b = begin; b < end; b += chunk) threads.emplace_back(body, b, std::min(end, b + chunk), ctx);
  for (auto& t : threads) t.join();
}

inline const cpu::Executor kSerial{};
inline const cpu::Executor kThreaded{&threaded_parallel_for};

inline std::vector<float> normal_floats(size_t n, uint32_t seed, float scale = 1.0f) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist(0.0f, scale);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

inline std::vector<bf16> to_bf16_vec(const std::vector<float>& v) {
  std::vector<bf16> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = to_bf16(v[i]);
  return out;
}

inline bool same_bits(const std::vector<bf16>& a, const std::vector<bf16>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].bits != b[i].bits) return false;
  return true;
}

inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (float_to_bits(a[i]) != float_to_bits(b[i])) return false;
  return true;
}

}  // namespace dsv4::test
