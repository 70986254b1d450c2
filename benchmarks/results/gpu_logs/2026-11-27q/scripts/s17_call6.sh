#!/usr/bin/env bash
# Session 17, call 6: the %globaltimer trace over the landed build (tr17b = 4738f9d + trace_patch17.py: stamps in the
# seam's post warpgroup), T = 4032, D = 4096: where the seam's first stage waits after the PDL wait.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=benchmarks/results/gpu_logs/2026-11-27q/scripts; P=benchmarks/results/gpu_logs/2026-11-27p/scripts
rm -rf /tmp/ab/tr; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/tr .carry/w/tr17b/*.whl
PYTHONPATH=/tmp/ab/tr timeout 100 python3 $P/trace16.py 4032 4096 > $OUT/trace4032.log 2>&1; echo "trace rc $?"
python3 $P/parse16.py $OUT/trace4032.log post_entry,post_full0,post_posted0 > $OUT/trace4032_summary.txt; gzip -f $OUT/trace4032.log
grep "==\|call [23]" $OUT/trace4032_summary.txt | grep -v "(224"
