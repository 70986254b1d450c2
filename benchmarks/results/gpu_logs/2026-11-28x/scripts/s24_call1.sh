#!/usr/bin/env bash
# Session 24, call 1: session 23's two prepared top-k patches. ne (main + no_exit_barrier_patch.py: clustered blocks
# skip the exit's cluster barrier) and lrne (ne + last_row_patch.py: no block barrier after a block's last row)
# against m24 (main, 526608f). Sanitizers over lrne (both patches): memcheck / synccheck over race23_decode.py,
# racecheck over its shapes 0 1 3 4 (all-to-all and pushed 32-bit bins), memcheck / racecheck over race23_prefill.py; then s23_call9.sh's A/B
# (race23_decode.py plain, ab_decode.py and bench_topk.py two rounds each). Carry .carry/w/{m24,ne,lrne}.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
W=benchmarks/results/gpu_logs/2026-11-27w/scripts
rm -rf /tmp/ab/lrne; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/lrne .carry/w/lrne/*.whl
cs() { PYTHONPATH=/tmp/ab/lrne timeout 150 compute-sanitizer --tool $1 --error-exitcode 1 "${@:2}" > $OUT/$1_$(basename $3 .py).log 2>&1; echo "$1 $3 rc $?"; tail -n1 $OUT/$1_$(basename $3 .py).log; }
cs memcheck python3 $W/race23_decode.py
cs synccheck python3 $W/race23_decode.py
cs racecheck python3 $W/race23_decode.py 0 1 3 4
for t in memcheck racecheck; do cs $t python3 $W/race23_prefill.py; done
bash $W/s23_call9.sh m24 ne lrne
