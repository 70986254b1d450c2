#!/usr/bin/env bash
# Prepared in session 22, not run: the validation of a2 (a2a_patch.py) if call 9 shows it faster. Carry .carry/w/a2 and
# .carry/bin/test_cuda_launchers.gz built with the patch applied (scripts/build_wheel.sh on a tree with the patch).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
V=benchmarks/results/gpu_logs/2026-11-27v/scripts
rm -rf /tmp/ab/a2; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/a2 .carry/w/a2/*.whl
for tool in memcheck racecheck synccheck; do
  PYTHONPATH=/tmp/ab/a2 timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 python3 $V/race22_decode.py > $OUT/${tool}.log 2>&1; echo "$tool rc $?"; tail -1 $OUT/${tool}.log
done
(cd tests/python && PYTHONPATH=/tmp/ab/a2 timeout 150 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -1) | tee $OUT/tests_topk.log
gunzip -f .carry/bin/test_cuda_launchers.gz
timeout 120 .carry/bin/test_cuda_launchers --gtest_brief=1 2>&1 | tail -3 | tee $OUT/gtest.log
