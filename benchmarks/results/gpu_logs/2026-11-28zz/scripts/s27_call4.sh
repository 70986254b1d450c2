#!/usr/bin/env bash
# Session 27, call 4. m27 (main): Nsight Compute source counters (per-SASS stall samples) of the D = 7168 TMA kernel,
# mhc_pre_delayed without the norm and mhc_pre with it, T = 16384; one archive back. Carry .carry/w/m27.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=benchmarks/results/gpu_logs/2026-11-28zz/scripts
rm -rf /tmp/ab/m27; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/m27 .carry/w/m27/*.whl
export PYTHONPATH=/tmp/ab/m27
mkdir -p /tmp/p4
for c in "mhc_pre_delayed 16384 7168 0" "mhc_pre 16384 7168 1"; do
  tag=$(echo $c | tr ' ' _)
  timeout 120 ncu --kernel-name regex:tma --launch-skip 1 --launch-count 1 --section SourceCounters --section WarpStateStats \
    --section SpeedOfLight -o /tmp/p4/rep_$tag python3 $S/prof27.py $c > /tmp/p4/ncu_$tag.log 2>&1; echo "ncu $tag rc $?"
  ncu -i /tmp/p4/rep_$tag.ncu-rep --page source --csv --print-source sass > /tmp/p4/sass_$tag.csv 2>&1
  ncu -i /tmp/p4/rep_$tag.ncu-rep --page details > /tmp/p4/details_$tag.txt 2>&1
  grep -E "Duration|Warp Cycles Per Issued" /tmp/p4/details_$tag.txt
done
rm -f /tmp/p4/*.ncu-rep; tar -C /tmp -czf $OUT/p4.tgz p4; ls -la $OUT
