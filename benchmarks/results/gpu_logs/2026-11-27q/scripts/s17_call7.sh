#!/usr/bin/env bash
# Session 17, call 7: sl (the D = 4096 staging as a rolled loop, one item a pass with the next item's loads in flight)
# against l17 (the landed build, 4738f9d's kernels): same bits, A/B at D = 4096.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27q/scripts; P=benchmarks/results/gpu_logs/2026-11-27p/scripts
rm -rf /tmp/ab/l17; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/l17 .carry/wheels/*.whl
rm -rf /tmp/ab/sl; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/sl .carry/w/sl/*.whl
for rep in 1 2; do for w in l17 sl; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 $P/ab16.py $w "1024 4096" 4096 mhc_pre,mhc_pre_delayed,hc_head,mhc_fused_post_pre; done; done 2>&1 | tee $OUT/ab4096.log
PYTHONPATH=/tmp/ab/l17 timeout 100 python3 $S/same_bits17.py l17 2>&1 | tail -1
PYTHONPATH=/tmp/ab/sl timeout 100 python3 $S/same_bits17.py sl l17 2>&1 | tail -1 | tee $OUT/same_bits.log
