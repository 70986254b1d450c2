#!/usr/bin/env bash
# Session 2026-11-26 (7), call 14: results/topk from the final top-k build (.carry/w/s8, commit of the 8-load decode stream).
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/s8 .carry/w/s8/*.whl
PYTHONPATH=/tmp/ab/s8 timeout 120 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"
