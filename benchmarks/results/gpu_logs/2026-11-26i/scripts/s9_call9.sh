#!/usr/bin/env bash
# Session 2026-11-26 (9), call 9: ps = the two-group decode stream with its second group's loads issued before the sample's
# pick (in flight during the exchange), against fin (.carry/wheels, ecd7a86's top-k): decode CUDA tests, memcheck and
# racecheck over race_cluster.py, A/B of the decode shapes (three rounds).
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/fin .carry/wheels/*.whl
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/ps .carry/w/ps/*.whl
export PYTHONUNBUFFERED=1
PYTHONPATH=/tmp/ab/ps timeout 200 python3 -m pytest -q -x tests/python/test_top_k_per_row_decode.py tests/python/test_top_k_per_row_prefill.py -k cuda 2>&1 | tail -1 | tee $OUT/tests_ps.log
for tool in memcheck racecheck; do
  PYTHONPATH=/tmp/ab/ps timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 python3 .carry/race_cluster.py > $OUT/${tool}_ps.log 2>&1; echo "$tool rc $?"; tail -1 $OUT/${tool}_ps.log
done
for rep in 1 2 3; do for w in fin ps; do PYTHONPATH=/tmp/ab/$w python3 .carry/s9_ab.py $w many; done; done 2>&1 | tee $OUT/ab_many.log | sed 's/ det .*ok=True//' | grep -E "64x|16x|1x262144"
