#!/usr/bin/env bash
# Session 2026-11-26 (12), call 8: l2p (one-warp rows of 1025-2048 columns read their keys from global memory, the next row
# prefetched into L2, no row copy in shared memory: four 4-warp blocks an SM at 128 registers instead of three) against main
# (= .carry/wheels, 407b56e): A/B of the warp-row shapes, 2 rounds; top-k CUDA tests and memcheck on l2p.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in main:.carry/wheels l2p:.carry/w/l2p; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
for rep in 1 2; do for w in main l2p; do PYTHONPATH=/tmp/ab/$w python3 .carry/s12/ab_rows.py $w; done; done 2>&1 | tee $OUT/ab_rows.log
(cd tests/python && PYTHONPATH=/tmp/ab/l2p timeout 240 python3 -m pytest -q -x -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_l2p.log
PYTHONPATH=/tmp/ab/l2p timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 python3 scripts/sanitize_ops.py > $OUT/memcheck_l2p.log 2>&1; echo "memcheck rc $?"; tail -2 $OUT/memcheck_l2p.log
