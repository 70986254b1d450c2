#!/usr/bin/env bash
# Session 2026-11-26 (8), call 13: bl = 42e2557 + clusters of 4-8 exchange the picks after the stream as fixed-size bin lists (st.async + mbarrier;
# a cluster-barrier pull when a list overflows). Top-k CUDA tests (with the new cluster-of-8 pattern cases), memcheck + racecheck over clusters of 2/4/8,
# synccheck, A/B against HEAD (pm = 42e2557).
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in pm bl; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
PYTHONPATH=/tmp/ab/bl timeout 200 python3 -m pytest -q tests/python/test_top_k_per_row_prefill.py tests/python/test_top_k_per_row_decode.py -k cuda 2>&1 | tail -3 | tee $OUT/tests_bl.log
PYTHONPATH=/tmp/ab/bl timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 python3 .carry/race_cluster.py 2>&1 | tail -2 | tee $OUT/memcheck_bl.log
PYTHONPATH=/tmp/ab/bl timeout 200 compute-sanitizer --tool racecheck --error-exitcode 1 python3 .carry/race_cluster.py 2>&1 | tail -3 | tee $OUT/racecheck_bl.log
PYTHONPATH=/tmp/ab/bl timeout 100 compute-sanitizer --tool synccheck --error-exitcode 1 python3 .carry/race_cluster.py 2>&1 | tail -2 | tee $OUT/synccheck_bl.log
ROUNDS=3 bash .carry/s6_ab.sh decode pm bl 2>&1 | tee $OUT/ab_decode.log
PYTHONPATH=/tmp/ab/bl timeout 60 python3 .carry/decode_few.py bl 2>&1 | tee -a $OUT/ab_decode.log
PYTHONPATH=/tmp/ab/pm timeout 60 python3 .carry/decode_few.py pm 2>&1 | tee -a $OUT/ab_decode.log
