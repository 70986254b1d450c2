#!/usr/bin/env bash
# Session 23, call 10: ob's validation (the working tree: ordered_bases' sums by warp reductions). memcheck / synccheck
# over race23_decode.py, racecheck over its all-to-all shapes (0 1 3), the three tools over race23_prefill.py (the
# block kernels), the top-k / ragged_pack Python CUDA tests, test_cuda_launchers built from the working tree.
# Carry .carry/w/ob and .carry/bin. An argument names another wheel (.carry/w/NAME; call 12: su).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
W=benchmarks/results/gpu_logs/2026-11-27w/scripts
N=${1:-ob}
rm -rf /tmp/ab/$N; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$N .carry/w/$N/*.whl
export PYTHONPATH=/tmp/ab/$N
cs() { timeout 150 compute-sanitizer --tool $1 --error-exitcode 1 "${@:2}" > $OUT/$1_$(basename $3 .py).log 2>&1; echo "$1 $3 rc $?"; tail -n1 $OUT/$1_$(basename $3 .py).log; }
cs memcheck python3 $W/race23_decode.py
cs synccheck python3 $W/race23_decode.py
cs racecheck python3 $W/race23_decode.py 0 1 3
for t in memcheck racecheck synccheck; do cs $t python3 $W/race23_prefill.py; done
(cd tests/python && timeout 200 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py test_ragged_pack.py -k cuda 2>&1 | tail -n1) | tee $OUT/tests_topk.log
gunzip -f .carry/bin/test_cuda_launchers.gz
timeout 120 .carry/bin/test_cuda_launchers --gtest_brief=1 2>&1 | tail -n3 | tee $OUT/gtest.log
