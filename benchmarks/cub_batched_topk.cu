// Benchmark-only peer: CUB's cub::DeviceBatchedTopK (CCCL >= 3.6; the CUDA 13.0 toolkit's CUB 3.0.1
// lacks it) on whole fp32 rows, int32 indices per row, unsorted; either GPU-to-GPU deterministic with
// ties going to the lower index (our top-k's contract) or with no guarantee (CUB's fastest). Two
// instantiations only: CUB's own wrappers of every variant take minutes to compile. A plain C ABI, no
// torch, so one build serves any torch and Python (called through ctypes by
// dsv4ext/bench/cub_peer.py). Built by scripts/build_cub_topk.sh.
// The deterministic backend needs SM 9.0+; without this the pass that picks the policy for other
// (host or older) targets fails to compile instead of returning cudaErrorNotSupported there.
#define CUB_DISABLE_TOPK_UNSUPPORTED_ARCH_ASSERT
#include <cuda/__execution/determinism.h>
#include <cuda/__execution/output_ordering.h>
#include <cuda/__execution/require.h>
#include <cuda/__execution/tie_break.h>
#include <cuda/std/__execution/env.h>

#include <cstdint>
#include <cub/device/device_batched_topk.cuh>
#include <cuda/argument>
#include <cuda/iterator>

namespace {

constexpr int64_t kMaxWidth = int64_t{1} << 21;  // DeviceBatchedTopK's per-segment limit

// temp == nullptr: only writes the temporary storage size to `bytes`.
template <typename Requirements>
cudaError_t batched_topk(Requirements requirements, void* temp, size_t& bytes, const float* logits, int64_t rows,
                         int64_t width, int64_t k, int32_t* indices, cudaStream_t stream) {
  auto keys_in = cuda::make_strided_iterator(cuda::make_counting_iterator(logits), width);
  auto keys_out = cuda::make_constant_iterator(cuda::discard_iterator{});  // the values are not returned
  auto values_in = cuda::make_constant_iterator(cuda::make_counting_iterator(int32_t{0}));  // index in the row
  auto values_out = cuda::make_strided_iterator(cuda::make_counting_iterator(indices), k);
  auto sizes = cuda::args::immediate{width, cuda::args::bounds<int64_t{1}, kMaxWidth>()};
  auto k_arg = cuda::args::immediate{k, cuda::args::bounds<int64_t{1}, kMaxWidth>()};
  auto env = cuda::std::execution::env{requirements, cuda::stream_ref{stream}};
  return cub::DeviceBatchedTopK::MaxPairs(temp, bytes, keys_in, keys_out, values_in, values_out, sizes, k_arg,
                                          cuda::args::immediate{rows}, env);
}

cudaError_t batched_topk(bool deterministic, void* temp, size_t& bytes, const float* logits, int64_t rows,
                         int64_t width, int64_t k, int32_t* indices, cudaStream_t stream) {
  namespace exec = cuda::execution;
  if (deterministic) {
    return batched_topk(exec::require(exec::determinism::gpu_to_gpu, exec::tie_break::prefer_smaller_index,
                                      exec::output_ordering::unsorted),
                        temp, bytes, logits, rows, width, k, indices, stream);
  }
  return batched_topk(exec::require(exec::determinism::not_guaranteed, exec::tie_break::unspecified,
                                    exec::output_ordering::unsorted),
                      temp, bytes, logits, rows, width, k, indices, stream);
}

}  // namespace

// Bytes of temporary storage for one call, or -1 when CUB rejects the shape.
extern "C" int64_t dsv4ext_cub_topk_temp_bytes(int deterministic, int64_t rows, int64_t width, int64_t k) {
  size_t bytes = 0;
  return batched_topk(deterministic != 0, nullptr, bytes, nullptr, rows, width, k, nullptr, nullptr) == cudaSuccess
             ? static_cast<int64_t>(bytes)
             : -1;
}

// indices [rows, k] <- the k largest of each row of logits [rows, width] (contiguous), on `stream`.
// Returns the cudaError_t.
extern "C" int dsv4ext_cub_topk(int deterministic, void* temp, int64_t temp_bytes, const float* logits,
                                int64_t rows, int64_t width, int64_t k, int32_t* indices, void* stream) {
  size_t bytes = static_cast<size_t>(temp_bytes);
  return static_cast<int>(batched_topk(deterministic != 0, temp, bytes, logits, rows, width, k, indices,
                                       static_cast<cudaStream_t>(stream)));
}

extern "C" const char* dsv4ext_cub_error_string(int error) {
  return cudaGetErrorString(static_cast<cudaError_t>(error));
}
