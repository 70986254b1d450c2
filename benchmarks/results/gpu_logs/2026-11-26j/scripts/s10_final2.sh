#!/usr/bin/env bash
# Session 2026-11-26 (10), final call 2: the build of 0aa6940 (.carry/wheels): racecheck and memcheck over .carry/s10/race_mhc.py
# (every pipeline mHC op at T = 1, 16, 37, 200, D = 4096 / 7168: the kernel without its exit barrier), results/topk.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
for tool in racecheck memcheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 python3 .carry/s10/race_mhc.py > $OUT/${tool}_mhc.log 2>&1; echo "$tool rc $?"; tail -2 $OUT/${tool}_mhc.log
done
timeout 150 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"; tail -24 $OUT/bench_topk.log
