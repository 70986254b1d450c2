#!/usr/bin/env bash
# Session 31, call 2: main's wheel (.carry/wheels, 20da5d9 = 9b3696b's kernels) on the H100 (the machine the issues
# state their goals on; sessions 29-30 had only the H200): info, check, bench_mhc --no-compile, bench_topk.
# Carry [".carry/wheels"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
TAIL=4 timeout 150 scripts/gpu_check.sh info check
timeout 240 python3 benchmarks/bench_mhc.py --no-compile --out $OUT/mhc > $OUT/bench_mhc.log 2>&1; echo "bench_mhc rc $?"
timeout 150 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"
tail -3 $OUT/bench_mhc.log $OUT/bench_topk.log
