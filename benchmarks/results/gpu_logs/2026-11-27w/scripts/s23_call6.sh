#!/usr/bin/env bash
# Session 23, call 6: sp (a3 + sparse_a2a_patch.py: only the nonzero words of each pick's histogram travel) against a3
# (main): race23_decode.py on sp, ab_decode.py two rounds; sp's trace is not built (the A/B decides). Carry .carry/w/a3,
# .carry/w/sp.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
V=benchmarks/results/gpu_logs/2026-11-27v/scripts
W=benchmarks/results/gpu_logs/2026-11-27w/scripts
for w in a3 sp; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/sp timeout 120 python3 $W/race23_decode.py 2>&1 | tail -n3 | tee $OUT/race23_plain.log
for rep in 1 2; do for w in a3 sp; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 $V/ab_decode.py $w; done; done 2>&1 | tee $OUT/ab_decode.log
