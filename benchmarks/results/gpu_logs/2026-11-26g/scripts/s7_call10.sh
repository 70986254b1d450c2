#!/usr/bin/env bash
# Session 2026-11-26 (7), call 10: the stream store without the clamp onto the last slot (.carry/w/rc): top-k tests, racecheck over sanitize_ops.py, A/B against tc.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in tc rc; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/rc timeout 150 python3 -m pytest -q -x tests/python/test_top_k_per_row_prefill.py tests/python/test_top_k_per_row_decode.py -k cuda 2>&1 | tail -2
PYTHONPATH=/tmp/ab/rc timeout 330 compute-sanitizer --tool racecheck --error-exitcode 1 python3 scripts/sanitize_ops.py > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -2 $OUT/racecheck.log
ROUNDS=2 bash .carry/s6_ab.sh prefill tc rc 2>&1 | tee $OUT/ab_topk.log
