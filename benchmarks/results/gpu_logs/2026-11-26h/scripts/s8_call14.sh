#!/usr/bin/env bash
# Session 2026-11-26 (8), call 14: rv = the review commit (the clustered pick's common prefix, block barrier and first
# cluster barrier, hoisted out of its pull / push branches; same behaviour). Top-k CUDA tests (with the new cluster-of-8 pattern cases), memcheck + racecheck over clusters of 2/4/8,
# synccheck, A/B against HEAD (pm = 42e2557).
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in pm rv; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
PYTHONPATH=/tmp/ab/rv timeout 200 python3 -m pytest -q tests/python/test_top_k_per_row_prefill.py tests/python/test_top_k_per_row_decode.py -k cuda 2>&1 | tail -3 | tee $OUT/tests_rv.log
PYTHONPATH=/tmp/ab/rv timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 python3 .carry/race_cluster.py 2>&1 | tail -2 | tee $OUT/memcheck_rv.log
PYTHONPATH=/tmp/ab/rv timeout 200 compute-sanitizer --tool racecheck --error-exitcode 1 python3 .carry/race_cluster.py 2>&1 | tail -3 | tee $OUT/racecheck_rv.log
PYTHONPATH=/tmp/ab/rv timeout 100 compute-sanitizer --tool synccheck --error-exitcode 1 python3 .carry/race_cluster.py 2>&1 | tail -2 | tee $OUT/synccheck_rv.log
ROUNDS=2 bash .carry/s6_ab.sh decode pm rv 2>&1 | tee $OUT/ab_decode.log
