#!/usr/bin/env bash
# Session 2026-11-26 (7), call 13: 1024-thread top-k blocks stream 8 loads a lane (.carry/w/s8, the commit): top-k CUDA tests, memcheck, decode A/B against HEAD (hd).
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in hd s8; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/s8 timeout 150 python3 -m pytest -q -x tests/python/test_top_k_per_row_prefill.py tests/python/test_top_k_per_row_decode.py -k cuda 2>&1 | tail -2
PYTHONPATH=/tmp/ab/s8 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 python3 scripts/sanitize_ops.py 2>&1 | tail -1
ROUNDS=3 bash .carry/s6_ab.sh decode hd s8 2>&1 | tee $OUT/ab_decode.log
