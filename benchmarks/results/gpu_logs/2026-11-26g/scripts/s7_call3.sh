#!/usr/bin/env bash
# Session 2026-11-26 (7), call 3: the stream step with one compare (.carry/w/tc) against main's top-k (.carry/w/u4): tests, memcheck, A/B.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in u4 tc; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/tc timeout 200 python3 -m pytest -q -x tests/python/test_top_k_per_row_prefill.py tests/python/test_top_k_per_row_decode.py tests/python/test_ragged_pack.py -k cuda 2>&1 | tail -3
PYTHONPATH=/tmp/ab/tc timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 python3 scripts/sanitize_ops.py 2>&1 | tail -2
ROUNDS=3 bash .carry/s6_ab.sh all u4 tc 2>&1 | tee $OUT/ab_topk.log
