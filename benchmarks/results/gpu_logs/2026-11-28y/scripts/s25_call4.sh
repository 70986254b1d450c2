#!/usr/bin/env bash
# Session 25, call 4: main's kernels (.carry/wheels, 350de5b's build; topk.cu unchanged since but for 7cb8b09, same
# SASS): the new top-k tests (test_few_keys_on_the_kth_prefix: the k-th key among few or 33+ keys sharing its first
# two digits, every CUDA path) and bench_topk.py with seeded draws (decode: median of 5 draws, and the slowest)
# into $OUT/topk. Carry .carry/wheels.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
rm -rf /tmp/ab/main; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/main .carry/wheels/*.whl
export PYTHONPATH=/tmp/ab/main
(cd tests/python && timeout 200 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k "cuda and few_keys" 2>&1 | tail -n2) | tee $OUT/tests_few_keys.log
timeout 300 python3 benchmarks/bench_topk.py --out $OUT/topk 2>&1 | tail -n 3
cat $OUT/topk/topk.md
