#!/usr/bin/env bash
# Session 26 call 2: the experimental xb build (blocks_xb_patch.py) timed over block counts of the 256-thread
# prefill kernels (DSV4EXT_XB = narrow * 10 + wide; 64 is main's choice), two rounds. Carry .carry/w/xb.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
Z=benchmarks/results/gpu_logs/2026-11-28z/scripts
rm -rf /tmp/ab/xb; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/xb .carry/w/xb/*.whl
export PYTHONPATH=/tmp/ab/xb
for rep in 1 2; do for xb in 64 66 65 54 44 46; do
  DSV4EXT_XB=$xb timeout 120 python3 $Z/prefill_xb.py r$rep
done; done 2>&1 | tee $OUT/prefill_xb.log
