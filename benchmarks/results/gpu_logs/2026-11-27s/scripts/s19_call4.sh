#!/usr/bin/env bash
# Session 19, call 4 (run twice: the first run removed its own tar, named ncu_all.tgz): call 3 again, its outputs in one tar (call 3 returned 8 files: too many): Nsight Compute source counters of
# the decode calls (the landed wheel; caches and clocks not reset, finest PC sampling), for where the chain stalls.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts
rm -rf /tmp/ab/l18; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/l18 .carry/wheels/*.whl
for c in "mhc_post_hc_head 1 4096" "mhc_pre 1 4096" "hc_head 1 4096" "mhc_post_hc_head 1 7168"; do
  set -- $c; tag=$1_T$2_D$3
  PYTHONPATH=/tmp/ab/l18 timeout 150 ncu --kernel-name regex:mhc_pipeline --launch-skip 2 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --section LaunchStats \
    --warp-sampling-interval 0 --cache-control none --clock-control none --import-source no \
    -o $OUT/ncu_$tag python3 benchmarks/prof_mhc.py $1 $2 $3 > $OUT/ncu_$tag.log 2>&1; echo "ncu $tag rc $?"
  ncu -i $OUT/ncu_$tag.ncu-rep --page details > $OUT/ncu_$tag.txt 2>&1
  ncu -i $OUT/ncu_$tag.ncu-rep --page source --print-source sass --csv > $OUT/src_$tag.csv 2>&1
  ls -la $OUT/src_$tag.csv
done
cd $OUT && tar czf all.tgz ncu_* src_* && rm -f ncu_* src_*; ls -la $OUT
