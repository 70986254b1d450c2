#!/usr/bin/env bash
# Session 2026-11-26 (6), call 2: top-k baseline + Nsight Compute source-level profile of the block kernel.
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
export PYTHONPATH=/tmp/site
mkdir -p /work 2>/dev/null; [ -e /work/main ] || ln -s "$PWD" /work/main
timeout 120 python3 .carry/ab_topk3.py main | tee $OUT/ab_main.log
for shape in "8192 8192 512" "4096 32768 2048"; do
  tag=$(echo $shape | tr ' ' _)
  timeout 150 ncu --kernel-name regex:topk_kernel --launch-skip 2 --launch-count 1 --import-source yes \
     --section SourceCounters --section InstructionStats --section WarpStateStats --section LaunchStats --section Occupancy --section SpeedOfLight \
     -o $OUT/rep_$tag python3 .carry/prof_topk.py prefill $shape > $OUT/ncu_$tag.log 2>&1; echo "ncu $tag rc $?"
  ncu -i $OUT/rep_$tag.ncu-rep --page details > $OUT/details_$tag.txt 2>&1
  ncu -i $OUT/rep_$tag.ncu-rep --page source --csv --print-source sass > $OUT/sass_$tag.csv 2>&1
  ncu -i $OUT/rep_$tag.ncu-rep --page source --csv --print-source cuda > $OUT/cuda_$tag.csv 2>&1
  ls -la $OUT/*$tag*; head -c 600 $OUT/cuda_$tag.csv; echo
done
grep -E "Executed Instructions  |Duration|DRAM Throughput|Warp Cycles Per Issued|Achieved Occupancy|Registers Per" $OUT/details_*.txt
