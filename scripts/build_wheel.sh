#!/usr/bin/env bash
# Builds, on a CPU machine, what scripts/gpu_check.sh runs on the GPU machine (no compiling there):
# the stable-ABI abi3 wheel (CPU + CUDA sm_90a) into .carry/wheels and the gtest binaries (the CUDA
# launcher tests included) into .carry/bin. .carry is git-ignored and travels with `carry`.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
rm -rf .carry/wheels
python -m pip wheel --no-build-isolation --no-deps -q -w .carry/wheels .
BIN=$(dirname "$(command -v python)")
"$BIN/cmake" -S . -B build/cpp-tests -G Ninja -DDSV4EXT_BUILD_MODULE=OFF -DDSV4EXT_BUILD_TESTS=ON \
  -DPython_EXECUTABLE="$BIN/python" -DCMAKE_MAKE_PROGRAM="$BIN/ninja" > /dev/null
"$BIN/cmake" --build build/cpp-tests > /dev/null
rm -rf .carry/bin && mkdir -p .carry/bin && cp build/cpp-tests/tests/cpp/test_* .carry/bin/ 2>/dev/null || true
find .carry/bin -name '*.cmake' -delete
ls -l .carry/wheels .carry/bin
