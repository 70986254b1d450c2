#!/usr/bin/env bash
# Session 2026-11-26 (12), call 3: wr (warp-row top-k: contiguous columns a lane from a bank-swizzled row buffer, the ordered
# write from per-lane counts and one warp scan) against new (2a3da2f): top-k CUDA tests on wr; A/B of the warp-row shapes, 2 rounds;
# memcheck over the top-k sanitizer script.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in new:.carry/wheels wr:.carry/w/wr; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
(cd tests/python && PYTHONPATH=/tmp/ab/wr timeout 240 python3 -m pytest -q -x -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_wr.log
for rep in 1 2; do for w in new wr; do PYTHONPATH=/tmp/ab/$w python3 .carry/s12/ab_rows.py $w; done; done 2>&1 | tee $OUT/ab_rows.log
PYTHONPATH=/tmp/ab/wr timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 python3 scripts/sanitize_ops.py > $OUT/memcheck_wr.log 2>&1; echo "memcheck rc $?"; tail -2 $OUT/memcheck_wr.log
