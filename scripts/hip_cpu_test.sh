#!/usr/bin/env bash
# Executes every csrc/hip kernel at wave64 on the host: builds the HIP kernels and launchers against
# ROCm's HIP CPU runtime (third_party/hip-cpu; tests/cpp/hip_cpu, DSV4EXT_HIP_CPU=ON) with clang-19,
# and runs their gtests (gfx942 and gfx950 variants) against the CPU launchers. No GPU needed.
# Needs apt clang-19 libtbb-dev libgtest-dev and .venv (scripts/install.sh: cmake, ninja).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$PWD/.venv/bin
start=$SECONDS
mkdir -p build
"$BIN/cmake" -S . -B build/hip-cpu -G Ninja -DDSV4EXT_BUILD_MODULE=OFF -DDSV4EXT_BUILD_TESTS=ON \
  -DDSV4EXT_HIP_CPU=ON -DCMAKE_CXX_COMPILER=clang++-19 \
  -DPython_EXECUTABLE="$BIN/python" -DCMAKE_MAKE_PROGRAM="$BIN/ninja" > build/hip-cpu.log 2>&1 \
  || { cat build/hip-cpu.log; exit 1; }
"$BIN/cmake" --build build/hip-cpu --target hip_cpu_tests -j "${CMAKE_BUILD_PARALLEL_LEVEL:-2}"
echo "--- HIP-CPU build done ($((SECONDS - start)) s)"
"$BIN/ctest" --test-dir build/hip-cpu -R HipCpu -j "${CMAKE_BUILD_PARALLEL_LEVEL:-2}" --output-on-failure
echo "--- HIP-CPU tests done ($((SECONDS - start)) s)"
