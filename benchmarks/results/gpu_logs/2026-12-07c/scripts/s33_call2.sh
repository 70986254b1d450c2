#!/usr/bin/env bash
# Session 33, call 2: the checks of the mHC variant to land (argument; ../../2026-12-07b/scripts/next_s33_check.sh),
# then wr (the warp-row top-k trim; next_s33_wr.sh: tests, sanitizers, A/B). Carry [".carry/w/m32", ".carry/so.tar.xz"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=benchmarks/results/gpu_logs/2026-12-07b/scripts
bash $S/next_s33_check.sh ${1:-all}
bash $S/next_s33_wr.sh
