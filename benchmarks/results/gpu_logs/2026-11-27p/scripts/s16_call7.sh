#!/usr/bin/env bash
# Session 16, call 7: tc = ct_patch.py (timing only, wrong bits: each CTA stages 98 KB of contiguous fn instead of
# its slices at a 16 KB stride) + the trace, at T = 4032, D = 4096; then the final run (s16_final.sh).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=benchmarks/results/gpu_logs/2026-11-27p/scripts
rm -rf /tmp/ab/tc; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/tc .carry/w/tc/*.whl
PYTHONPATH=/tmp/ab/tc timeout 100 python3 $S/trace16.py 4032 4096 > $OUT/trace4032_tc.log 2>&1; echo "trace tc rc $?"
python3 $S/parse16.py $OUT/trace4032_tc.log > $OUT/trace4032_tc_summary.txt; gzip -f $OUT/trace4032_tc.log
grep -A8 "==" $OUT/trace4032_tc_summary.txt | grep "==\|call 3" | cut -c1-200
bash $S/s16_final.sh
