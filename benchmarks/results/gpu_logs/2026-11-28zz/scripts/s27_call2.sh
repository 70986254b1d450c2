#!/usr/bin/env bash
# Session 27, call 2. tr (trace27_patch.py: CTA 0's cycles in each wait of the TMA kernel): trace27.py. Carry .carry/w/tr.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zz/scripts
rm -rf /tmp/ab/tr; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/tr .carry/w/tr/*.whl
PYTHONPATH=/tmp/ab/tr timeout 200 python3 $S/trace27.py 2>&1 | tee $OUT/trace27.log | grep -v "^$" | tail -150
