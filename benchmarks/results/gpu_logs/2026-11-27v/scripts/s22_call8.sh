#!/usr/bin/env bash
# Session 22, call 8. wu (the working tree: the 1024-thread kernels walk their candidate segments one step at a time,
# unroll 1 instead of 4, so that each walk's code is a quarter the size: call 7 found 27 % of the decode row's stall
# samples waiting on instruction fetch, a third of them in the walks) against g8 (main): ab_decode.py two rounds;
# the top-k CUDA tests on wu.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
V=benchmarks/results/gpu_logs/2026-11-27v/scripts
for w in g8 wu; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for rep in 1 2; do for w in g8 wu; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 $V/ab_decode.py $w; done; done 2>&1 | tee $OUT/ab_decode.log
(cd tests/python && PYTHONPATH=/tmp/ab/wu timeout 150 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -1) | tee $OUT/tests_topk.log
