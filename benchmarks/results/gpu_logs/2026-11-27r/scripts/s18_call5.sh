#!/usr/bin/env bash
# Session 18, call 5: bench_mhc on the landed build (cd35ace, results/mhc, both D); then decode tiles of 1 / 2 / 4
# tokens (dt3: DSV4EXT_TT overrides the landed choice, 4 up to 28 tokens) at T = 2 .. 16.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts
rm -rf /tmp/ab/l18; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/l18 .carry/wheels/*.whl
rm -rf /tmp/ab/dt; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/dt .carry/w/dt/*.whl
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/l18 timeout 330 python3 benchmarks/bench_mhc.py --no-compile --out $OUT/mhc > $OUT/bench_mhc.log 2>&1; echo "bench_mhc rc $?"
OPS=hc_head,mhc_post_hc_head,mhc_pre,mhc_fused_post_pre
for d in 4096 7168; do for rep in 1 2; do
  DSV4EXT_TT=1 PYTHONPATH=/tmp/ab/dt timeout 100 python3 $P/ab16.py tt1 "2 4 7" $d $OPS
  DSV4EXT_TT=2 PYTHONPATH=/tmp/ab/dt timeout 100 python3 $P/ab16.py tt2 "2 4 7 8 12 14" $d $OPS
  PYTHONPATH=/tmp/ab/dt timeout 100 python3 $P/ab16.py tt4 "2 4 7 8 12 14 16" $d $OPS
done; done 2>&1 | tee $OUT/ab_tt.log
