#!/usr/bin/env bash
# Session 15, call 3: the trace build (trace_patch15.py over 623aca4: cycles each warp of CTA 0 spends in its
# barrier waits) for hc_head and the seam at D = 7168 and 4096, T = 16384.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
rm -rf /tmp/ab/trace; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/trace .carry/w/trace/*.whl
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27o/scripts
for d in 7168 4096; do PYTHONPATH=/tmp/ab/trace timeout 60 python3 $S/trace15.py "16384" $d; done 2>&1 | tee $OUT/trace.log
