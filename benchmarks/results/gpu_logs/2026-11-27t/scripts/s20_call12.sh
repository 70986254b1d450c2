#!/usr/bin/env bash
# Session 20, call 12: bench_mhc on the landed build (the gw commit 3859b71; results/mhc, both D, the after_add_us column's first run).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
rm -rf /tmp/ab/l20; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/l20 .carry/wheels/*.whl
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/l20 timeout 120 python3 benchmarks/bench_mhc.py --no-compile --out $OUT/mhc > $OUT/bench_mhc.log 2>&1; echo "bench_mhc rc $?"
tail -5 $OUT/bench_mhc.log
