#!/usr/bin/env bash
# Session 32, call 3: main (5e53c0f: sw + nf landed; the wheel is call 1-2's swnf variant build, .carry/wheels) on the H100:
# info, check, bench_mhc --no-compile, bench_topk.
# Carry [".carry/wheels"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
TAIL=4 timeout 150 scripts/gpu_check.sh info check
export PYTHONPATH=/tmp/dsv4ext-site  # where gpu_check.sh installed the wheel
timeout 240 python3 benchmarks/bench_mhc.py --no-compile --out $OUT/mhc > $OUT/bench_mhc.log 2>&1; echo "bench_mhc rc $?"
timeout 150 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"
for f in $OUT/bench_mhc.log $OUT/bench_topk.log; do tail -n 3 $f; done
