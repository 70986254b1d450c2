// How CPU launchers run in parallel without depending on torch: the caller passes a parallel_for.
// The torch binding hands in torch's intra-op pool; gtest uses the serial default.
#pragma once

#include <cstdint>

namespace dsv4::cpu {

struct Executor {
  using Body = void (*)(int64_t begin, int64_t end, void* ctx);
  using ParallelFor = void (*)(int64_t begin, int64_t end, int64_t grain, Body body, void* ctx);
  ParallelFor parallel_for = nullptr;  // null: run serially on the calling thread
};

// Runs f(begin, end) over [0, n) in chunks of at least `grain` items.
template <class F>
void parallel_for(const Executor& ex, int64_t n, int64_t grain, const F& f) {
  if (n <= 0) return;
  if (ex.parallel_for == nullptr || n <= grain) {
    f(int64_t(0), n);
    return;
  }
  ex.parallel_for(0, n, grain, [](int64_t b, int64_t e, void* ctx) { (*static_cast<const F*>(ctx))(b, e); },
                  const_cast<void*>(static_cast<const void*>(&f)));
}

}  // namespace dsv4::cpu
