#!/usr/bin/env bash
# Creates .venv (if missing) with torch and the build tools, then builds and installs dsv4ext into it.
# The backend follows the installed torch (CUDA torch + nvcc -> CPU + CUDA; otherwise CPU only);
# override with DSV4EXT_BACKEND=cpu|cuda, the torch with TORCH_SPEC (default torch==2.14.1).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q "${TORCH_SPEC:-torch==2.14.1}" "cmake>=3.26" ninja "scikit-build-core>=0.11" pytest numpy safetensors
[ -x /usr/local/cuda/bin/nvcc ] && export PATH=/usr/local/cuda/bin:$PATH
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
.venv/bin/python -m pip install --no-build-isolation -q .
.venv/bin/python -m dsv4ext info
