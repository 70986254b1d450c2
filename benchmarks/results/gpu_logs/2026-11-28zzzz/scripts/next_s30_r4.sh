#!/usr/bin/env bash
# Prepared in session 29 (not run). r4 (deep_ring_r4_patch.py): mhc_pre and mhc_pre_delayed without the norm at
# D = 4096 on a TMA ring of 4 stages (64 KB in flight, from 48), partial / weight rings of 2 (from 3) making the room
# (232240 of 232448 bytes). On the H200 an SM's share of the copy rate asks 56-74 KB in flight (NOTES, session 29);
# the delayed op without the norm is at 70 % of its floor there. Base pm = main's kernels (.carry/w/pm); carry
# [".carry/w/pm", ".carry/so.tar.xz"] with the xz from `variant_so_xz.sh r4` (or r4 beside pg sc fc).
# Same bits as pm (same_bits18.py at prefill sizes; the norm modes unchanged too), determinism, A/B two rounds, the pre / delayed tests.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1 AB_BW=4.17e12  # ab16.py's % at the H200's copy rate
S=benchmarks/results/gpu_logs/2026-11-28zzzz/scripts; Z=benchmarks/results/gpu_logs/2026-11-28zzz/scripts  # session 28's setup and det28
BASE=pm bash $Z/s28_setup.sh r4
export SB_T=1024,1100,4100,9000 SB_OPS=mhc_pre,mhc_pre_delayed  # the TMA kernel's sizes (both D: 7168 unchanged)
SB=benchmarks/results/gpu_logs/2026-11-27r/scripts/same_bits18.py
PYTHONPATH=/tmp/ab/pm timeout 90 python3 $SB pm 2>&1 | tee $OUT/bits.log
PYTHONPATH=/tmp/ab/r4 timeout 90 python3 $SB r4 pm 2>&1 | tee -a $OUT/bits.log
DET_OPS=mhc_pre,mhc_pre_delayed PYTHONPATH=/tmp/ab/r4 timeout 90 python3 $Z/det28.py r4 10 4096 2>&1 | tee $OUT/det.log
for rep in 1 2; do for w in pm r4; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 benchmarks/results/gpu_logs/2026-11-27p/scripts/ab16.py $w "1024 4096 16384 65536" 4096 mhc_pre,mhc_pre_delayed
done; done 2>&1 | tee $OUT/ab.log
(cd tests/python && PYTHONPATH=/tmp/ab/r4 timeout 240 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py \
  test_mhc_pre_delayed.py 2>&1 | tail -3) | tee $OUT/tests.log
