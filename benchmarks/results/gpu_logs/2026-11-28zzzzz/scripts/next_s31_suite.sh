#!/usr/bin/env bash
# Prepared in session 30: the whole GPU pytest suite on main after session 30 (call 6 ran the CUDA gtests, 40 passed,
# and was cut in the suite by the session's device budget). Carry [".carry/wheels"] (main's wheel).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
TAIL=8 timeout 560 scripts/gpu_check.sh test
