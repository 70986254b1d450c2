#!/usr/bin/env bash
# The HIP checks that need neither an AMD GPU nor a ROCm torch (shared/spec/build.md section 7):
#  1. compile every csrc/hip/*.hip for gfx942 (clang-19) and gfx950 (ziglang's clang 22) and check
#     the code objects: ABI, no undefined symbols, no scratch, VGPR budgets; writes the table
#     benchmarks/results/hip_isa.{md,json} (scripts/hip_isa_check.py; arguments go to it);
#  2. through CMake's HIP language, the route a ROCm `pip install .` takes (gfx942 only: Debian's
#     clang-19 has no gfx950): build the dsv4ext_hip static library, compile the _C binding sources
#     as a ROCm build does (DSV4EXT_WITH_HIP, USE_ROCM) against the installed torch's headers (no
#     ROCm torch exists to link against), and check that the library defines every dsv4::hip
#     symbol the dispatcher calls.
# Every step runs even when an earlier one fails, so one CI run reports all of them.
# Needs apt clang-19 lld-19 llvm-19 libamdhip64-dev and, in .venv, ziglang (scripts/install.sh + pip).
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=$PWD/.venv/bin
start=$SECONDS
failed=()

"$BIN/python" scripts/hip_isa_check.py "$@" || failed+=("ISA check")
echo "--- HIP ISA check done ($((SECONDS - start)) s)"

# -nogpulib in CMAKE_HIP_FLAGS only for CMake's compiler probe, which would otherwise look for ROCm
# device libraries; the library's own sources get it from cmake/hip_sources.cmake.
mkdir -p build
bindings=$(cd csrc/bindings && ls *.cpp | sed 's|^|CMakeFiles/_C.dir/csrc/bindings/|; s|$|.o|')
if "$BIN/cmake" -S . -B build/hip-lib -G Ninja -DDSV4EXT_BACKEND=hip -DCMAKE_HIP_COMPILER=clang++-19 \
     -DCMAKE_HIP_FLAGS=-nogpulib -DDSV4EXT_HIP_ARCHS=gfx942 \
     -DPython_EXECUTABLE="$BIN/python" -DCMAKE_MAKE_PROGRAM="$BIN/ninja" > build/hip-lib.log 2>&1; then
  if "$BIN/cmake" --build build/hip-lib --target dsv4ext_hip -j "${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
     && "$BIN/ninja" -C build/hip-lib -j "${CMAKE_BUILD_PARALLEL_LEVEL:-2}" $bindings; then
    missing=$(comm -23 \
      <(nm -C build/hip-lib/CMakeFiles/_C.dir/csrc/bindings/dispatch.cpp.o | sed -n 's/^ *U \(dsv4::hip::.*\)/\1/p' | sort -u) \
      <(nm -C --defined-only build/hip-lib/libdsv4ext_hip.a | sed -n 's/^[0-9a-f]* T \(dsv4::hip::.*\)/\1/p' | sort -u))
    [ -z "$missing" ] || { echo "dispatcher symbols missing from libdsv4ext_hip.a: $missing"; failed+=("HIP launcher symbols"); }
  else
    failed+=("CMake HIP build")
  fi
else
  cat build/hip-lib.log
  failed+=("CMake HIP configure")
fi
echo "--- CMake HIP library + ROCm bindings (gfx942) done ($((SECONDS - start)) s)"

if [ ${#failed[@]} -gt 0 ]; then
  printf 'HIP checks FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
