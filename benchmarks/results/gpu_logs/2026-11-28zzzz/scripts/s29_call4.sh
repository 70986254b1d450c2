#!/usr/bin/env bash
# Session 29, call 4: main's build (xd, .carry/wheels) on the H200: `python -m dsv4ext check`, then the GPU pytest
# suite (the whole of tests/python; cut at the call's limit, the log says how far it got) with -x off.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
TAIL=6 timeout 585 scripts/gpu_check.sh check test
