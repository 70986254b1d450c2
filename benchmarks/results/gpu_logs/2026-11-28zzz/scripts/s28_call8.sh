#!/usr/bin/env bash
# Session 28, call 8. Nsight Compute source counters (per-SASS stall samples) of the landed build's D = 7168 TMA kernel,
# mhc_pre_delayed without the norm, T = 16384: which instructions hold call 7's L1TEX (long scoreboard) stalls (35 % of
# the warps' stall cycles, in a kernel whose only global loads are fn's staging, pre_mix and nothing per stage).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=benchmarks/results/gpu_logs/2026-11-28zzz/scripts; S27=benchmarks/results/gpu_logs/2026-11-28zz/scripts
bash $S/s28_setup.sh f4f
export PYTHONPATH=/tmp/ab/f4f
tag=delayed_nn_16384_7168
timeout 120 ncu --kernel-name regex:tma --launch-skip 2 --launch-count 1 --section SourceCounters --section WarpStateStats \
  -o /tmp/rep_$tag python3 $S27/prof27.py mhc_pre_delayed 16384 7168 0 > $OUT/ncu_$tag.log 2>&1; echo "ncu rc $?"
ncu -i /tmp/rep_$tag.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $OUT/sass_$tag.csv.gz
ls -la $OUT
