#!/usr/bin/env bash
# Session 32, call 5 (what the last ~400 s of device budget allowed): main (5e53c0f, the wheel of call 3): the CUDA
# gtests (test_cuda_launchers built here from 5e53c0f, xz-packed in .carry/binx), then the GPU pytest suite as far as
# 200 s go (every store_bf16x8 user's tests first). Carry [".carry/wheels", ".carry/binx"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
rm -rf .carry/bin && xz -dc .carry/binx/bin.tar.xz | tar -xf - -C .carry
TAIL=4 timeout 100 scripts/gpu_check.sh gtest
TAIL=4 TESTS="tests/python/test_mhc_post.py tests/python/test_mhc_fused_post_pre.py tests/python/test_mhc_fused_post_pre_delayed.py tests/python/test_mhc_pre.py tests/python/test_hc_head.py" \
  timeout 200 scripts/gpu_check.sh test
