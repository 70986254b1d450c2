#!/usr/bin/env bash
# Session 2026-11-26 (9), call 7: two stream groups of 5 / 6 loads (g5, g6) against main's 4 (fin = .carry/wheels):
# decode CUDA tests on each, then A/B of the decode shapes with long slices.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/fin .carry/wheels/*.whl
for w in g5 g6; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
for w in g5 g6; do echo "== $w"; PYTHONPATH=/tmp/ab/$w timeout 200 python3 -m pytest -q -x tests/python/test_top_k_per_row_decode.py -k cuda 2>&1 | tail -1; done 2>&1 | tee $OUT/tests.log
for rep in 1 2 3; do for w in fin g5 g6; do PYTHONPATH=/tmp/ab/$w python3 .carry/s9_ab.py $w many; done; done 2>&1 | tee $OUT/ab_many.log | sed 's/ det .*ok=True//'
