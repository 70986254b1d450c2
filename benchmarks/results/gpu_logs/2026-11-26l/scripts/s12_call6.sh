#!/usr/bin/env bash
# Session 2026-11-26 (12), call 6: bk4 (rows of 2049-4096 columns with >= 512 rows on the six-block 256-thread kernel instead
# of two-warp groups) against wr3 (= 32af9f1): A/B of rows of 2049-8192 columns, two rounds; top-k CUDA tests on bk4.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in wr3:.carry/w/wr3 bk4:.carry/w/bk4; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
for rep in 1 2; do for w in wr3 bk4; do PYTHONPATH=/tmp/ab/$w python3 .carry/s12/ab_mid.py $w; done; done 2>&1 | tee $OUT/ab_mid.log
(cd tests/python && PYTHONPATH=/tmp/ab/bk4 timeout 240 python3 -m pytest -q -x -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_bk4.log
