#!/usr/bin/env bash
# Downloads, on this machine, the peers that `scripts/gpu_check.sh peers` installs on the GPU machine
# (which has no network): flashinfer-python trimmed to its mHC and top-k modules
# (scripts/trim_flashinfer_wheel.py) and the wheels their import needs, for CPython 3.12 on
# manylinux x86_64, into .carry/peers (git-ignored, carried with .carry). Prints the sizes: everything
# carried (.carry: wheels, bin, peers) must stay under 64 MiB.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
FLASHINFER=flashinfer-python==0.7.2
# What importing flashinfer.mhc and flashinfer.topk needs beyond torch, numpy, packaging, filelock and
# jinja2 (all on the GPU machine). The GPU image lists requests and nvidia-ml-py too; gpu_check.sh
# installs those from here only where they do not import.
DEPS=(apache-tvm-ffi==0.1.15.post2 requests==2.34.2 urllib3==2.8.0 idna==3.20 certifi==2026.10.18
      charset-normalizer==3.5.2 nvidia-ml-py==13.615.71)

download() {  # download DIR SPEC...: wheels for the GPU machine's Python
  "$PY" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_24_x86_64 \
    --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform manylinux1_x86_64 -d "$@"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf .carry/peers && mkdir -p .carry/peers
download "$tmp" "$FLASHINFER"
"$PY" scripts/trim_flashinfer_wheel.py "$tmp"/flashinfer_python-*.whl .carry/peers
download .carry/peers "${DEPS[@]}"
ls -l .carry/peers
du -sh --apparent-size .carry/*
du -sh --apparent-size .carry
