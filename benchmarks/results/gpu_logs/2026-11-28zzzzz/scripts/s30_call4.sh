#!/usr/bin/env bash
# Session 30, call 4: s30 = main with r4 (the deep ring; its kernels' cubins byte-identical to call 1's r4) and the
# fused ops composed from 113 tokens at D = 4096 (call 3). bench_mhc --no-compile -> results/mhc_h200; the same bits
# as pm (main before) at the new boundary and at prefill sizes; the crossing of mhc_fused_post_pre_delayed.
# Carry [".carry/wheels", ".carry/w/pm"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zzzzz/scripts
for w in s30 pm; do rm -rf /tmp/ab/$w; done
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/s30 .carry/wheels/*.whl
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/pm .carry/w/pm/*.whl
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > $OUT/gpu.txt
PYTHONPATH=/tmp/ab/s30 timeout 330 python3 benchmarks/bench_mhc.py --no-compile --out $OUT/mhc > $OUT/bench_mhc.log 2>&1
echo "bench_mhc rc $?"; tail -2 $OUT/bench_mhc.log
SB=benchmarks/results/gpu_logs/2026-11-27r/scripts/same_bits18.py; mkdir -p /tmp/sb
export SB_T=1,64,112,113,120,127,128,1100,4100
(for w in pm s30; do OUT=/tmp/sb PYTHONPATH=/tmp/ab/$w timeout 90 python3 $SB $w $([ $w = s30 ] && echo pm); done) 2>&1 | tee $OUT/bits.log
for rep in 1 2; do for w in pm s30; do
  PYTHONPATH=/tmp/ab/$w timeout 40 python3 $S/xcross30.py $w "64 112 113 120 127"
done; done 2>&1 | tee $OUT/cross.log
