#!/usr/bin/env bash
# Session 20, call 10: where gw's wrong results are (diag20.py: per output, rows that differ from l20; repeat calls).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
T=benchmarks/results/gpu_logs/2026-11-27t/scripts
for w in l20 gw; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/l20 timeout 120 python3 $T/diag20.py l20 2>&1 | tee $OUT/diag.log
PYTHONPATH=/tmp/ab/gw timeout 120 python3 $T/diag20.py gw l20 2>&1 | tee -a $OUT/diag.log
rm -f $OUT/*.pt
