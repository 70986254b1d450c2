#!/usr/bin/env bash
# Session 2026-11-26 (10), call 1: bl (.carry/wheels, c481c99's kernels) against n1 (PDL prologue before the wait in the
# pipeline mHC and clustered top-k kernels; Sinkhorn sums with three shuffles at once; rcp_rn's fast path off the chain;
# DSV4_EXP_C8: decode clusters capped at 4 past 65536 columns). rcp_rn bits, decode A/B, ncu of the decode kernel, tests.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in bl:.carry/wheels n1:.carry/w/n1; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
.carry/bin10/rcp_rn_bits | tee $OUT/rcp_rn_bits.log
for rep in 1 2; do for w in bl n1; do PYTHONPATH=/tmp/ab/$w python3 .carry/s10/s10_ab.py $w mhc; done; done 2>&1 | tee $OUT/ab_mhc.log | grep -E "T=  1|T= 16"
for rep in 1 2; do for w in bl n1 c8; do
  if [ $w = c8 ]; then DSV4_EXP_C8=1 PYTHONPATH=/tmp/ab/n1 python3 .carry/s10/s10_ab.py c8 topk; else PYTHONPATH=/tmp/ab/$w python3 .carry/s10/s10_ab.py $w topk; fi
done; done 2>&1 | tee $OUT/ab_topk.log
for w in bl n1; do
  PYTHONPATH=/tmp/ab/$w timeout 90 ncu --cache-control none -k regex:pipeline --launch-skip 8 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats python3 .carry/s10/ncu_decode.py mhc_pre 16 4096 > $OUT/ncu_pre16_$w.txt 2>&1
  grep -E "Duration|Stall|Warp Cycles Per|Issued Warp|No Eligible" $OUT/ncu_pre16_$w.txt | head -20
done
PYTHONPATH=/tmp/ab/n1 timeout 150 python3 -m pytest -q -x -p no:cacheprovider tests/python/test_mhc_pre.py tests/python/test_sinkhorn.py tests/python/test_top_k_per_row_decode.py -k cuda 2>&1 | tail -2 | tee $OUT/tests_n1.log
