#!/usr/bin/env bash
# The HIP checks that need neither an AMD GPU nor a ROCm torch (shared/spec/build.md section 7):
#  1. compile every csrc/hip/*.hip for gfx942 (clang-19) and gfx950 (ziglang's clang 22) and check
#     the code objects: ABI, no undefined symbols, no scratch, VGPR budgets; writes the table
#     benchmarks/results/hip_isa.{md,json} (scripts/hip_isa_check.py; arguments go to it);
#  2. parse the dispatcher and the registration as a ROCm build compiles them (DSV4EXT_WITH_HIP,
#     USE_ROCM) against the installed torch's headers;
#  3. configure and build the dsv4ext_hip static library through CMake's HIP language, the route a
#     ROCm `pip install .` takes (gfx942 only: Debian's clang-19 has no gfx950).
# Every step runs even when an earlier one fails, so one CI run reports all of them.
# Needs apt clang-19 lld-19 llvm-19 libamdhip64-dev and, in .venv, ziglang (scripts/install.sh + pip).
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=$PWD/.venv/bin
start=$SECONDS
failed=()

"$BIN/python" scripts/hip_isa_check.py "$@" || failed+=("ISA check")
echo "--- HIP ISA check done ($((SECONDS - start)) s)"

torch_include=$("$BIN/python" -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "include"))')
for tu in csrc/bindings/dispatch.cpp csrc/bindings/registration.cpp; do
  g++ -std=c++20 -fsyntax-only -Wall -Wextra -isystem "$torch_include" \
    -DTORCH_TARGET_VERSION=0x020a000000000000ULL '-DDSV4EXT_BACKENDS="cpu,hip"' \
    -DDSV4EXT_WITH_HIP -DUSE_ROCM -DUSE_CUDA "$tu" || failed+=("ROCm parse of $tu")
done
echo "--- ROCm binding syntax check done ($((SECONDS - start)) s)"

# -nogpulib in CMAKE_HIP_FLAGS only for CMake's compiler probe, which would otherwise look for ROCm
# device libraries; the library's own sources get it from cmake/hip_sources.cmake.
mkdir -p build
if "$BIN/cmake" -S . -B build/hip-lib -G Ninja -DDSV4EXT_BACKEND=hip -DDSV4EXT_BUILD_MODULE=OFF \
     -DCMAKE_HIP_COMPILER=clang++-19 -DCMAKE_HIP_FLAGS=-nogpulib -DDSV4EXT_HIP_ARCHS=gfx942 \
     -DPython_EXECUTABLE="$BIN/python" -DCMAKE_MAKE_PROGRAM="$BIN/ninja" > build/hip-lib.log 2>&1; then
  "$BIN/cmake" --build build/hip-lib --target dsv4ext_hip -j "${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
    || failed+=("CMake HIP library build")
else
  cat build/hip-lib.log
  failed+=("CMake HIP configure")
fi
echo "--- CMake HIP library (gfx942) done ($((SECONDS - start)) s)"

if [ ${#failed[@]} -gt 0 ]; then
  printf 'HIP checks FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
