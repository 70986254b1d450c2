#!/usr/bin/env bash
# Session 30, call 6: main after session 30 (9b3696b's kernels, .carry/wheels): the CUDA gtests and the whole GPU
# pytest suite on the H200. The gtest binary travels xz-packed (.carry/binx/bin.tar.xz holds .carry/bin with
# test_cuda_launchers; unpacked it would take the carry past 64 MiB). Carry [".carry/wheels", ".carry/binx"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
rm -rf .carry/bin && xz -dc .carry/binx/bin.tar.xz | tar -xf - -C .carry
TAIL=8 timeout 450 scripts/gpu_check.sh gtest test
