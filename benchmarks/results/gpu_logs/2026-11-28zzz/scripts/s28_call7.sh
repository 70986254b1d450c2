#!/usr/bin/env bash
# Session 28, call 7. Nsight Compute of the landed build (f4f) where goals are missed: the D = 7168 TMA kernels of
# mhc_pre_delayed without the norm and mhc_pre with the norm (T = 16384), and the top-k warp-row kernel (16384 x 2048,
# k = 512): SpeedOfLight, Occupancy, WarpStateStats (the "after" of session 27's call 1 figures).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zzz/scripts; S27=benchmarks/results/gpu_logs/2026-11-28zz/scripts
bash $S/s28_setup.sh f4f
export PYTHONPATH=/tmp/ab/f4f
for c in "mhc_pre_delayed 16384 7168 0" "mhc_pre 16384 7168 1"; do
  tag=$(echo $c | tr ' ' _)
  timeout 60 ncu --kernel-name regex:tma --launch-skip 2 --launch-count 1 --section WarpStateStats --section SpeedOfLight \
    --section Occupancy --section MemoryWorkloadAnalysis python3 $S27/prof27.py $c > $OUT/details_$tag.txt 2>&1
  echo "ncu $tag rc $?"
  grep -E "Duration|DRAM Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|Achieved Occupancy|L2 Hit|Stall" $OUT/details_$tag.txt | head -14
done
tag=wr_16384_2048_512
timeout 60 ncu --kernel-name regex:topk_warp_rows --launch-skip 2 --launch-count 1 --section WarpStateStats \
  --section SpeedOfLight --section Occupancy python3 $S27/prof_topk.py 16384 2048 512 > $OUT/details_$tag.txt 2>&1
echo "ncu $tag rc $?"
grep -E "Duration|DRAM Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|Achieved Occupancy|Executed Ipc" $OUT/details_$tag.txt
