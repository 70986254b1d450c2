#!/usr/bin/env bash
# Session 18, call 8: the pipeline kernel's decode calls traced (tp = trace_patch18.py over the landed kernels):
# the seam, hc_head and mhc_pre at T = 1 / 4 / 16, D = 4096 and 7168.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27r/scripts
rm -rf /tmp/ab/tp; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/tp .carry/w/tp/*.whl
for d in 4096 7168; do PYTHONPATH=/tmp/ab/tp timeout 100 python3 $S/trace18.py $d > $OUT/trace_$d.log 2>&1; echo "trace $d rc $?"; done
for d in 4096 7168; do python3 $S/trace18.py $d $OUT/trace_$d.log | tee $OUT/trace_${d}_summary.txt; done
