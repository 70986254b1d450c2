#!/usr/bin/env bash
# Session 21, call 8: mg (more_groups_mg_patch.py, timing only: more warps a row for few rows, TOPK_MG) A/B with
# ab_mg.py, two rounds, and the top-k CUDA tests under TOPK_MG=1.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
U=benchmarks/results/gpu_logs/2026-11-27u/scripts
rm -rf /tmp/ab/mg; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/mg .carry/w/mg/*.whl
for rep in 1 2; do for m in 0 1 2; do
  TOPK_MG=$m PYTHONPATH=/tmp/ab/mg timeout 60 python3 $U/ab_mg.py mg$m
done; done 2>&1 | tee $OUT/ab_mg.log
(cd tests/python && TOPK_MG=1 PYTHONPATH=/tmp/ab/mg timeout 200 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -1) | tee $OUT/tests_mg.log
