#!/usr/bin/env bash
# Session 16, call 8: t4 = the trace build with stamps inside the D = 4096 staging (trace_patch16b.py: first item
# done, every item's parts stored, the proxy fence done), T = 4032.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=benchmarks/results/gpu_logs/2026-11-27p/scripts
rm -rf /tmp/ab/t4; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/t4 .carry/w/t4/*.whl
PYTHONPATH=/tmp/ab/t4 timeout 100 python3 $S/trace16.py 4032 4096 > $OUT/trace4032_t4.log 2>&1; echo "trace t4 rc $?"
python3 $S/parse16.py $OUT/trace4032_t4.log > $OUT/trace4032_t4_summary.txt; gzip -f $OUT/trace4032_t4.log
grep -A8 "==" $OUT/trace4032_t4_summary.txt | grep "==\|call [23]" | grep -v "(224"
