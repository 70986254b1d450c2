#!/usr/bin/env bash
# Session 23, call 15: nb's tests (the working tree: pick_digit without its last barrier): the top-k / ragged_pack
# Python CUDA tests and test_cuda_launchers built from the working tree (call 14 ran the sanitizers). Carry
# .carry/w/nb and .carry/bin.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
rm -rf /tmp/ab/nb; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/nb .carry/w/nb/*.whl
(cd tests/python && PYTHONPATH=/tmp/ab/nb timeout 200 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py test_ragged_pack.py -k cuda 2>&1 | tail -n1) | tee $OUT/tests_topk.log
gunzip -f .carry/bin/test_cuda_launchers.gz
timeout 120 .carry/bin/test_cuda_launchers --gtest_brief=1 2>&1 | tail -n3 | tee $OUT/gtest.log
