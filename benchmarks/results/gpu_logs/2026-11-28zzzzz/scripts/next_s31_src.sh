#!/usr/bin/env bash
# Prepared in session 30 (not run): where the TMA kernels' warps wait, by source line, on the H200 (call 3 found the
# L1TEX scoreboard the largest share, 2.0-3.3 of ~6 cycles between a warp's issues, not yet placed). Nsight Compute
# source counters at the finest warp sampling, one launch each (T = 16384): mhc_pre_delayed without the norm at
# D = 7168 and 4096, hc_head at 4096. Summaries by ../../2026-11-27s/scripts/ncu_src_stalls.py (stall shares, the top
# instructions); the CSVs gzipped. Carry [".carry/wheels"] (main's wheel).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
rm -rf /tmp/ab/main; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/main .carry/wheels/*.whl
export PYTHONPATH=/tmp/ab/main
P=benchmarks/results/gpu_logs/2026-11-28zz/scripts/prof27.py
for c in "mhc_pre_delayed 16384 7168 0" "mhc_pre_delayed 16384 4096 0" "hc_head 16384 4096 0"; do
  set -- $c; tag=$1_$3
  timeout 150 ncu --kernel-name regex:mhc_tma_kernel --launch-skip 2 --launch-count 1 --section SourceCounters \
    --section WarpStateStats --warp-sampling-interval 0 --clock-control none --import-source no \
    -o /tmp/ncu_$tag python3 $P $c > $OUT/ncu_$tag.log 2>&1; echo "ncu $tag rc $?"
  ncu -i /tmp/ncu_$tag.ncu-rep --page source --print-source sass --csv > /tmp/src_$tag.csv 2>&1
  python3 benchmarks/results/gpu_logs/2026-11-27s/scripts/ncu_src_stalls.py /tmp/src_$tag.csv 30 | tee $OUT/stalls_$tag.txt
  gzip -c /tmp/src_$tag.csv > $OUT/src_$tag.csv.gz
done
