#!/usr/bin/env bash
# Session 2026-11-26 (8), call 9: pm = clusters of 2 send their histograms by st.async into the other block and wait on an
# mbarrier (no pick barrier). Top-k CUDA tests (with the new cluster-of-8 pattern cases), memcheck + racecheck over clusters of 2/4/8,
# A/B against HEAD (hd8 = fd2960a), decode anatomy.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in hd8 pm; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
PYTHONPATH=/tmp/ab/pm timeout 200 python3 -m pytest -q tests/python/test_top_k_per_row_prefill.py tests/python/test_top_k_per_row_decode.py -k cuda 2>&1 | tail -3 | tee $OUT/tests_pm.log
PYTHONPATH=/tmp/ab/pm timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 python3 .carry/race_cluster.py 2>&1 | tail -2 | tee $OUT/memcheck_pm.log
PYTHONPATH=/tmp/ab/pm timeout 200 compute-sanitizer --tool racecheck --error-exitcode 1 python3 .carry/race_cluster.py 2>&1 | tail -3 | tee $OUT/racecheck_pm.log
ROUNDS=3 bash .carry/s6_ab.sh decode hd8 pm 2>&1 | tee $OUT/ab_decode.log
for w in hd8 pm; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 .carry/decode_anatomy.py $w; done 2>&1 | tee $OUT/anatomy.log
