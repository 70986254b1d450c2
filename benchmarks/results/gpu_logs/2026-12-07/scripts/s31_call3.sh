#!/usr/bin/env bash
# Session 31, call 3: main (20da5d9 = 9b3696b's kernels, .carry/wheels): the CUDA gtests and the whole GPU
# pytest suite on the H100. The gtest binary travels xz-packed (.carry/binx/bin.tar.xz holds .carry/bin with
# test_cuda_launchers; unpacked it would take the carry past 64 MiB). Carry [".carry/wheels", ".carry/binx"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
rm -rf .carry/bin && xz -dc .carry/binx/bin.tar.xz | tar -xf - -C .carry
TAIL=8 timeout 540 scripts/gpu_check.sh gtest test
