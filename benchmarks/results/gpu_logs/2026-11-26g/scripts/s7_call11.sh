#!/usr/bin/env bash
# Session 2026-11-26 (7), call 11: decode clusters streaming 8 loads a lane (.carry/w/d8) against HEAD (.carry/w/hd).
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
ROUNDS=3 bash .carry/s6_ab.sh decode hd d8 2>&1 | tee $OUT/ab_decode.log
PYTHONPATH=/tmp/ab/d8 timeout 120 python3 -m pytest -q -x tests/python/test_top_k_per_row_decode.py -k cuda 2>&1 | tail -2
