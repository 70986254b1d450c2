#!/usr/bin/env bash
# Session 24, call 2: le (main + last_row_patch.py + early_load_patch.py: no barrier after a block's last row, a row's
# sample loads before its histogram's clear) and lew (le + early_group_patch.py: the two-group stream's first group
# issued before the sample's pick) against m24 (main, 526608f): s23_call9.sh's A/B (race23_decode.py plain,
# ab_decode.py and bench_topk.py two rounds each), then memcheck / racecheck over race23_decode.py's shapes 0 2 4 and
# race23_prefill.py on lew. Carry .carry/w/{m24,le,lew}.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
W=benchmarks/results/gpu_logs/2026-11-27w/scripts
bash $W/s23_call9.sh m24 le lew
cs() { PYTHONPATH=/tmp/ab/lew timeout 150 compute-sanitizer --tool $1 --error-exitcode 1 "${@:2}" > $OUT/$1_$(basename $3 .py).log 2>&1; echo "$1 $3 rc $?"; tail -n1 $OUT/$1_$(basename $3 .py).log; }
for t in memcheck racecheck; do cs $t python3 $W/race23_decode.py 0 2 4; cs $t python3 $W/race23_prefill.py; done
