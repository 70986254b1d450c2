#!/usr/bin/env bash
# .carry/s6_prof.sh WHEEL SHAPE...: per-SASS counters of the top-k block kernel for wheel .carry/w/WHEEL ("rows width k" per shape).
set -uo pipefail
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
w=$1; shift
[ -d /tmp/ab/$w ] || python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl
export PYTHONPATH=/tmp/ab/$w
for shape in "$@"; do
  tag=${w}_$(echo $shape | tr ' ' _)
  timeout 150 ncu --kernel-name regex:topk_kernel --launch-skip 2 --launch-count 1 --section SourceCounters --section WarpStateStats --section SpeedOfLight --section Occupancy \
     -o /tmp/rep_$tag python3 .carry/prof_topk.py prefill $shape > /tmp/ncu_$tag.log 2>&1; echo "ncu $tag rc $?"
  ncu -i /tmp/rep_$tag.ncu-rep --page source --csv --print-source sass > /tmp/sass_$tag.csv 2>&1
  python3 .carry/sass_reduce.py /tmp/sass_$tag.csv $OUT/sass_$tag.csv.gz > /dev/null
  ncu -i /tmp/rep_$tag.ncu-rep --page details > $OUT/details_$tag.txt 2>&1
  grep -E "Duration|DRAM Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|Achieved Occupancy" $OUT/details_$tag.txt
done
