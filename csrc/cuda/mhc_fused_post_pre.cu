// Fused post+pre. Short batches (n = 4): the pipelined kernel computes the post in registers, stores
// the bf16 residual and projects those rounded values without reading them back. From
// fused_compose_min_tokens on (113 at D = 4096, else 128), mhc_post then mhc_pre (its own dispatch: the TMA
// kernel at D = 4096 from 1024 tokens, at D = 7168 from 512) is faster than that kernel (benchmarks/NOTES.md,
// sessions 2026-11-26 (7) and (12), 30) and
// gives the same bits per token: the pipeline applies mhc_post's FMA order, and mhc_pre's kernels
// compute its projection term for term. Other shapes: the post kernel stores the residual and the pre
// kernel reads it (§3.7's semantics either way).
#include "cuda_ops.h"
#include "mhc_pipeline_kernel.cuh"
#include "mhc_post_kernel.cuh"
#include "mhc_pre_kernel.cuh"

namespace dsv4::cuda {

int mhc_fused_post_pre(const MhcFusedParams& p, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  if (p.pre.tokens < pipeline_mhc::fused_compose_min_tokens(p.pre.hc_mult, p.pre.hidden)) {
    const int fast = pipeline_mhc::launch<pipeline_mhc::Mode::kFused>(p, s);
    if (fast >= 0) return fast;
  }
  const int err = launch_mhc_post(p.post, s);
  return err != 0 ? err : mhc_pre(p.pre, stream);
}

}  // namespace dsv4::cuda
