#!/usr/bin/env bash
# Session 2026-11-26 (6), call 3: per-SASS-instruction counters of the top-k block kernels (256 and 512 threads).
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
export PYTHONPATH=/tmp/site
for shape in "8192 8192 512" "4096 32768 2048"; do
  tag=$(echo $shape | tr ' ' _)
  timeout 150 ncu --kernel-name regex:topk_kernel --launch-skip 2 --launch-count 1 --section SourceCounters --section WarpStateStats \
     --metrics smsp__pcsamp_warps_issue_stalled_barrier,smsp__pcsamp_warps_issue_stalled_short_scoreboard,smsp__pcsamp_warps_issue_stalled_long_scoreboard \
     -o /tmp/rep_$tag python3 .carry/prof_topk.py prefill $shape > /tmp/ncu_$tag.log 2>&1; echo "ncu $tag rc $?"
  ncu -i /tmp/rep_$tag.ncu-rep --page source --csv --print-source sass > /tmp/sass_$tag.csv 2>&1
  python3 .carry/sass_reduce.py /tmp/sass_$tag.csv $OUT/sass_$tag.csv.gz
  ncu -i /tmp/rep_$tag.ncu-rep --page raw --csv 2>/dev/null | python3 -c "
import csv,sys
r=list(csv.reader(sys.stdin)); h=r[0]; v=r[-1]
for a,b in zip(h,v):
  if 'stall' in a or 'inst_executed' in a: print(a,b)" > $OUT/raw_$tag.txt
  head -c 3000 $OUT/raw_$tag.txt
done
