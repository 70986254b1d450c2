#!/usr/bin/env bash
# Session 2026-11-26 (8), call 6: lc = the clustered top-k's write offsets from the picks (lower-rank counts; no ordered_bases
# cluster barrier). Top-k CUDA tests (with the new cluster-of-8 pattern cases), memcheck + racecheck over clusters of 2/4/8,
# A/B against HEAD (q1 = 2373e6e's code), decode anatomy.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in q1 lc; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
PYTHONPATH=/tmp/ab/lc timeout 200 python3 -m pytest -q tests/python/test_top_k_per_row_prefill.py tests/python/test_top_k_per_row_decode.py -k cuda 2>&1 | tail -3 | tee $OUT/tests_lc.log
PYTHONPATH=/tmp/ab/lc timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 python3 .carry/race_cluster.py 2>&1 | tail -2 | tee $OUT/memcheck_lc.log
PYTHONPATH=/tmp/ab/lc timeout 200 compute-sanitizer --tool racecheck --error-exitcode 1 python3 .carry/race_cluster.py 2>&1 | tail -3 | tee $OUT/racecheck_lc.log
ROUNDS=3 bash .carry/s6_ab.sh decode q1 lc 2>&1 | tee $OUT/ab_decode.log
ROUNDS=1 bash .carry/s6_ab.sh prefill q1 lc 2>&1 | tee $OUT/ab_prefill.log
for w in q1 lc; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 .carry/decode_anatomy.py $w; done 2>&1 | tee $OUT/anatomy.log
