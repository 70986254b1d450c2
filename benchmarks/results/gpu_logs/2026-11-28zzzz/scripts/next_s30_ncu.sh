#!/usr/bin/env bash
# Prepared in session 29 (not run): the first Nsight Compute profile on the H200 of the kernels that miss their goals
# there (main's build, .carry/w/pm): the TMA kernels of hc_head and the seam at D = 4096, mhc_pre_delayed without the
# norm and mhc_pre with it at D = 7168 (T = 16384), the warp-row top-k (16384 x 2048 k = 512) and mhc_post (the
# reference stream). DRAM %, SM %, occupancy, cycles between issues, stall reasons. The machine's runtime decides
# whether ncu reads counters (KINDS.md: Firecracker yes, gVisor no); the first command says which.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=benchmarks/results/gpu_logs/2026-11-28zzzz/scripts
rm -rf /tmp/ab/pm; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/pm .carry/w/pm/*.whl
export PYTHONPATH=/tmp/ab/pm
uname -r | tee $OUT/runtime.txt
for c in "tma hc_head 16384 4096 0" "tma mhc_post_hc_head 16384 4096 1" "tma mhc_pre_delayed 16384 7168 0" \
         "tma mhc_pre 16384 7168 1" "mhc_post_kernel mhc_post 16384 4096 0"; do
  set -- $c; k=$1; shift; c="$*"
  tag=$(echo $c | tr ' ' _)
  timeout 60 ncu --clock-control none --kernel-name regex:$k --launch-skip 2 --launch-count 1 --section WarpStateStats --section SpeedOfLight \
    --section Occupancy --section MemoryWorkloadAnalysis python3 benchmarks/results/gpu_logs/2026-11-28zz/scripts/prof27.py $c > $OUT/details_$tag.txt 2>&1
  echo "ncu $tag rc $?"
  grep -E "^  [a-z_].*kernel|Duration|DRAM Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|Achieved Occupancy|L2 Hit" \
    $OUT/details_$tag.txt | head -10
done
tag=wr_16384_2048_512
timeout 60 ncu --clock-control none --kernel-name regex:topk_warp_rows --launch-skip 2 --launch-count 1 \
  --section WarpStateStats --section SpeedOfLight --section Occupancy python3 benchmarks/results/gpu_logs/2026-11-28zz/scripts/prof_topk.py 16384 2048 512 \
  > $OUT/details_$tag.txt 2>&1
echo "ncu $tag rc $?"
grep -E "Duration|DRAM Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|Achieved Occupancy" $OUT/details_$tag.txt
