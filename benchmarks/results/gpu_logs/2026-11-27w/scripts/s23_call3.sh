#!/usr/bin/env bash
# Session 23, call 3: a3's validation (the working tree: all-to-all 16-bit histograms in clusters of 4-8).
# memcheck / racecheck / synccheck over race23_decode.py, the top-k Python CUDA tests (with the new 8 x 65535 and
# 8 x 65535 + 1 rows), test_cuda_launchers built from the working tree (new decode_10x65536 / decode_10x600000).
# Carry .carry/w/a3 and .carry/bin.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
W=benchmarks/results/gpu_logs/2026-11-27w/scripts
rm -rf /tmp/ab/a3; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/a3 .carry/w/a3/*.whl
for tool in memcheck racecheck synccheck; do
  PYTHONPATH=/tmp/ab/a3 timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 python3 $W/race23_decode.py > $OUT/${tool}.log 2>&1; echo "$tool rc $?"; tail -n1 $OUT/${tool}.log
done
(cd tests/python && PYTHONPATH=/tmp/ab/a3 timeout 200 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -n1) | tee $OUT/tests_topk.log
gunzip -f .carry/bin/test_cuda_launchers.gz
timeout 150 .carry/bin/test_cuda_launchers --gtest_brief=1 2>&1 | tail -n3 | tee $OUT/gtest.log
