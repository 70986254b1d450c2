#!/usr/bin/env bash
# Session 18, call 2: dt (decode tiles of 4 or 8 tokens spread over more clusters; DSV4EXT_TT overrides the
# choice in this experimental build) against sl (the landed kernels): same bits at decode sizes, then A/B.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; S=benchmarks/results/gpu_logs/2026-11-27r/scripts
for w in sl dt; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/sl timeout 120 python3 $S/same_bits18.py sl 2>&1 | tail -1
PYTHONPATH=/tmp/ab/dt timeout 120 python3 $S/same_bits18.py dt sl 2>&1 | tail -1 | tee $OUT/same_bits.log
DSV4EXT_TT=8 PYTHONPATH=/tmp/ab/dt timeout 120 python3 $S/same_bits18.py dt8 sl 2>&1 | tail -1 | tee -a $OUT/same_bits.log
OPS=hc_head,mhc_post_hc_head,mhc_pre,mhc_fused_post_pre
for rep in 1 2; do for d in 4096 7168; do
  PYTHONPATH=/tmp/ab/sl timeout 100 python3 $P/ab16.py sl "1 4 8 16 28 32 64" $d $OPS
  PYTHONPATH=/tmp/ab/dt timeout 100 python3 $P/ab16.py dt "1 4 8 16 28 32 64" $d $OPS
  DSV4EXT_TT=8 PYTHONPATH=/tmp/ab/dt timeout 100 python3 $P/ab16.py dt8 "4 8 16 28 32 64" $d $OPS
done; done 2>&1 | tee $OUT/ab_dt.log
