// Standalone Sinkhorn on CDNA: one lane per n x n matrix (n <= 8, so the matrix lives in at most 64
// VGPRs), the shared per-token routine of common/mhc_math.h.
#include "../common/mhc_math.h"
#include "cdna_common.h"
#include "hip_ops.h"

namespace dsv4::hip {

namespace {

constexpr int kThreads = 256;

template <class Arch, int N>
__global__ void __launch_bounds__(kThreads) sinkhorn_kernel(SinkhornParams p) {
  if constexpr (Arch::kThisTarget) {
    const int64_t stride = block_count<kThreads>() * kThreads;
    for (int64_t b = block_id() * kThreads + thread_id(); b < p.batch; b += stride) {
      float c[N * N];
#pragma unroll
      for (int e = 0; e < N * N; ++e) c[e] = p.logits[b * N * N + e];
      sinkhorn_inplace(c, N, p.repeat, p.eps);
#pragma unroll
      for (int e = 0; e < N * N; ++e) p.out[b * N * N + e] = c[e];
    }
  }
}

template <class Arch>
int launch_sinkhorn(const SinkhornParams& p, void* stream) {
  if (p.batch == 0) return 0;
  return dispatch_hc_mult(p.n, [&](auto n) {
    // 8 workgroups of 4 waves per CU: enough waves to hide the dependent exp/div latency.
    hipLaunchKernelGGL((sinkhorn_kernel<Arch, decltype(n)::value>), grid_for<Arch>(p.batch, kThreads, 8),
                       kThreads, 0, static_cast<hipStream_t>(stream), p);
    return int(hipGetLastError());
  });
}

}  // namespace

namespace gfx942 {
int sinkhorn(const SinkhornParams& p, void* stream) { return launch_sinkhorn<Gfx942>(p, stream); }
}  // namespace gfx942

namespace gfx950 {
int sinkhorn(const SinkhornParams& p, void* stream) { return launch_sinkhorn<Gfx950>(p, stream); }
}  // namespace gfx950

}  // namespace dsv4::hip
