#!/usr/bin/env python3
"""Session 17 variant t384: fn's D = 4096 staging over all threads of the CTA (thread 0 after issuing the ring's
first stages), so that the 24-row ops' 768 items are 2 a thread at 384 threads; before, warps 1-11 (352 threads)
staged them and threads 0-63 took a third item after a second round of loads."""
import pathlib

p = pathlib.Path("csrc/cuda/mhc_tma_kernel.cuh")
s = p.read_text()
old = """  if (warp > 0) {
    if constexpr (G::kTf32) {
      if (warp == 1) stage_fn_f32<M>(pp, rank, reinterpret_cast<float*>(b_smem), &ct.fn_full, threadIdx.x % 32);
    } else {
      stage_fn<M>(pp, rank, b_smem, threadIdx.x - 32, kThreads - 32);
    }
  }"""
new = """  if constexpr (G::kTf32) {
    if (warp == 1) stage_fn_f32<M>(pp, rank, reinterpret_cast<float*>(b_smem), &ct.fn_full, threadIdx.x % 32);
  } else {
    stage_fn<M>(pp, rank, b_smem, threadIdx.x, kThreads);
  }"""
assert s.count(old) == 1
p.write_text(s.replace(old, new))
print("patched t384")
