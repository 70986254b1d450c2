#!/usr/bin/env bash
# Session 2026-11-26 (8), final call 2: the build of 42e2557's top-k (.carry/w/pm; 42e2557 differs from it in comments only):
# racecheck over scripts/sanitize_ops.py and .carry/race_cluster.py, then bench_topk (results/topk).
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/pm .carry/w/pm/*.whl
export PYTHONPATH=/tmp/ab/pm PYTHONUNBUFFERED=1
timeout 100 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"; tail -30 $OUT/bench_topk.log
timeout 330 compute-sanitizer --tool racecheck --error-exitcode 1 python3 scripts/sanitize_ops.py > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -2 $OUT/racecheck.log
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 python3 .carry/race_cluster.py > $OUT/racecheck_cluster.log 2>&1; echo "racecheck cluster rc $?"; tail -2 $OUT/racecheck_cluster.log
