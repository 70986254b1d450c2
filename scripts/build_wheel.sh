#!/usr/bin/env bash
# Builds the stable-ABI abi3 wheel (CPU + CUDA sm_90a) on a CPU machine into .carry/wheels, the
# git-ignored folder that scripts/gpu_check.sh installs from on the GPU machine (no compiling there).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
rm -rf .carry/wheels
python -m pip wheel --no-build-isolation --no-deps -q -w .carry/wheels .
ls -l .carry/wheels
