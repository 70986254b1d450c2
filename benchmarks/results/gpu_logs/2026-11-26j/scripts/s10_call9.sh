#!/usr/bin/env bash
# Session 2026-11-26 (10), call 9: trace of cs (fn copied into shared memory by cp.async; cst = cs + trace_patch2.py + a stamp after
# the copy's wait): where the copy's time goes.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/cst .carry/w/cst/*.whl
PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/ab/cst python3 .carry/s10/trace.py > $OUT/trace_cs.log 2>&1
grep -B8 "== " $OUT/trace_cs.log | grep -E "TRACE|==" | grep -v "^--"
