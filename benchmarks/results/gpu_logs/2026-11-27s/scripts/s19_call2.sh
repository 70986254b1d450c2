#!/usr/bin/env bash
# Session 19, call 2: (a) tt19 (the landed kernels + tt_env_patch.py: DSV4EXT_TT overrides the decode tile size)
# at T = 9 .. 16, tiles of 4 (landed choice), 8 (two clusters) and 16 (one); (b) Nsight Compute source counters of
# the decode calls (the landed wheel; caches and clocks not reset, finest PC sampling), for where the chain stalls.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts
rm -rf /tmp/ab/l18; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/l18 .carry/wheels/*.whl
rm -rf /tmp/ab/tt; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/tt .carry/w/tt19/*.whl
for rep in 1 2; do for d in 4096 7168; do for tt in 4 8 16; do
  DSV4EXT_TT=$tt PYTHONPATH=/tmp/ab/tt timeout 60 python3 $P/ab16.py tt$tt "12 16" $d mhc_post_hc_head,mhc_fused_post_pre,hc_head,mhc_pre
done; done; done 2>&1 | tee $OUT/ab_tt.log
for c in "mhc_post_hc_head 1 4096" "mhc_pre 1 4096" "hc_head 1 4096" "mhc_post_hc_head 1 7168"; do
  set -- $c; tag=$1_T$2_D$3
  PYTHONPATH=/tmp/ab/l18 timeout 150 ncu --kernel-name regex:mhc_pipeline --launch-skip 2 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --section LaunchStats \
    --pc-sampling-interval 0 --cache-control none --clock-control none --import-source no \
    -o $OUT/ncu_$tag python3 benchmarks/prof_mhc.py $1 $2 $3 > $OUT/ncu_$tag.log 2>&1; echo "ncu $tag rc $?"
  ncu -i $OUT/ncu_$tag.ncu-rep --page details > $OUT/ncu_$tag.txt 2>&1
  ncu -i $OUT/ncu_$tag.ncu-rep --page source --print-source sass --csv > $OUT/src_$tag.csv 2>&1
  ls -la $OUT/src_$tag.csv
done
