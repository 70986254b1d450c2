#!/usr/bin/env bash
# Session 25, call 7: main's build (.carry/wheels) validated as it lands: `python -m dsv4ext check` on cuda, the
# top-k / ragged_pack Python CUDA tests (the new few-keys tests included), memcheck over race_few.py,
# test_cuda_launchers (.carry/bin, built from main's tree). Carry .carry/wheels and .carry/bin.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
Y=benchmarks/results/gpu_logs/2026-11-28y/scripts
rm -rf /tmp/ab/main; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/main .carry/wheels/*.whl
export PYTHONPATH=/tmp/ab/main
timeout 150 python3 -m dsv4ext check --device cuda 2>&1 | tail -n3 | tee $OUT/check.log
(cd tests/python && timeout 200 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py test_ragged_pack.py -k cuda 2>&1 | tail -n1) | tee $OUT/tests_topk.log
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 python3 $Y/race_few.py > $OUT/memcheck_race_few.log 2>&1; echo "memcheck rc $?"; tail -n1 $OUT/memcheck_race_few.log
gunzip -f .carry/bin/test_cuda_launchers.gz
timeout 120 .carry/bin/test_cuda_launchers --gtest_brief=1 2>&1 | tail -n3 | tee $OUT/gtest.log
