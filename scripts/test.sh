#!/usr/bin/env bash
# Runs every test: the GoogleTest suites of the torch-free launchers (ctest; GPU tests skip without a
# GPU) and the pytest suites of the ops (GPU cases skip without a GPU). Expects scripts/install.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! dpkg -s libgtest-dev >/dev/null 2>&1; then
  apt-get install -y -q libgtest-dev libgmock-dev >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q libgtest-dev libgmock-dev >/dev/null; }
fi
[ -x /usr/local/cuda/bin/nvcc ] && export PATH=/usr/local/cuda/bin:$PATH
BIN=$PWD/.venv/bin
mkdir -p build
"$BIN/cmake" -S . -B build/cpp-tests -G Ninja -DDSV4EXT_BUILD_MODULE=OFF -DDSV4EXT_BUILD_TESTS=ON \
  -DPython_EXECUTABLE="$BIN/python" -DCMAKE_MAKE_PROGRAM="$BIN/ninja" > build/cpp-tests.log 2>&1 \
  || { cat build/cpp-tests.log; exit 1; }
"$BIN/cmake" --build build/cpp-tests -j "${CMAKE_BUILD_PARALLEL_LEVEL:-2}"
"$BIN/ctest" --test-dir build/cpp-tests --output-on-failure
"$BIN/python" -m pytest tests/python -q -rs "$@"
