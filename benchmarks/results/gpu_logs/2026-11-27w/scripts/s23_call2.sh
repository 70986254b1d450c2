#!/usr/bin/env bash
# Session 23, call 2. a3 (the working tree: all-to-all 16-bit histograms only in clusters of 4-8 whose slices hold
# < 65536 keys, their own kernels, so the other kernels compile as main's) and a16 (a3 + a16_patch.py: sends spread
# over every thread, non-portable clusters of 16) against wu (main): race23_decode.py on a3 and a16, then
# ab_decode.py (session 22's, in place) two rounds, every result checked. Carry .carry/w/{wu,a3,a16}.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
V=benchmarks/results/gpu_logs/2026-11-27v/scripts
W=benchmarks/results/gpu_logs/2026-11-27w/scripts
for w in wu a3 a16; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for w in a3 a16; do echo "== $w"; PYTHONPATH=/tmp/ab/$w timeout 120 python3 $W/race23_decode.py 2>&1 | tail -3; done | tee $OUT/race23_plain.log
for rep in 1 2; do for w in wu a3 a16; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 $V/ab_decode.py $w; done; done 2>&1 | tee $OUT/ab_decode.log
