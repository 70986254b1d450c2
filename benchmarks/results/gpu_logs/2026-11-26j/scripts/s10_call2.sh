#!/usr/bin/env bash
# Session 2026-11-26 (10), call 2: clock64 trace of the decode kernel's phases (wheel tr = n1 + stamps of CTA 0), the
# decode anatomy (Sinkhorn 20 / 1 iterations, fn from HBM), on n1.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in n1:.carry/w/n1 tr:.carry/w/tr; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
PYTHONPATH=/tmp/ab/tr python3 .carry/s10/trace.py > $OUT/trace.log 2>&1
grep -B4 "== " $OUT/trace.log
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm --format=csv
for rep in 1 2; do PYTHONPATH=/tmp/ab/n1 python3 .carry/s10/anatomy.py n1; done 2>&1 | tee $OUT/anatomy.log
