#!/usr/bin/env bash
# Prepared in session 21, not run (the device budget could not start another machine). l21e: main with
# eight_warps_g8.diff applied (`git apply`; few rows of 4097-8192 columns on blocks of eight warps of 32 keys), built by
# scripts/build_wheel.sh and copied to .carry/w/l21e, against l21d (main's wheel, .carry/w/l21d); carry those and .carry/bin:
# ab_g8.py two rounds; then on l21e the whole test_cuda_launchers, the top-k CUDA tests, memcheck / racecheck over
# race21_topk.py (now with 20 x 8192, k = 2048).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
U=benchmarks/results/gpu_logs/2026-11-27u/scripts
for w in l21d l21e; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for rep in 1 2; do for w in l21d l21e; do PYTHONPATH=/tmp/ab/$w timeout 40 python3 $U/ab_g8.py $w; done; done 2>&1 | tee $OUT/ab_g8.log
gunzip -f .carry/bin/test_cuda_launchers.gz
timeout 100 .carry/bin/test_cuda_launchers --gtest_brief=1 2>&1 | tail -4 | tee $OUT/gtest.log
(cd tests/python && PYTHONPATH=/tmp/ab/l21e timeout 150 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -1) | tee $OUT/tests_topk.log
for tool in memcheck racecheck; do
  PYTHONPATH=/tmp/ab/l21e timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 python3 $U/race21_topk.py > $OUT/${tool}.log 2>&1; echo "$tool rc $?"; tail -1 $OUT/${tool}.log
done
