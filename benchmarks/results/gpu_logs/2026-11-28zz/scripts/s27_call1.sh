#!/usr/bin/env bash
# Session 27, call 1. main's build (c10e010, wheel m27): bench_mhc --no-compile -> results/mhc (session 26's
# next_bench_mhc.sh), then Nsight Compute: the top-k warp-row kernel at 16384 x 2048 k = 512 with source counters
# (per-SASS stall samples), and SpeedOfLight / Occupancy / WarpStateStats of the mHC TMA kernels where goals are
# missed (D = 7168 mhc_pre / mhc_pre_delayed T = 16384, hc_head and the seam T = 4096). Carry .carry/w/m27.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zz/scripts
w=m27
rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl
export PYTHONPATH=/tmp/ab/$w
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv > $OUT/gpu.txt
timeout 330 python3 benchmarks/bench_mhc.py --no-compile --out $OUT/mhc > $OUT/bench_mhc.log 2>&1
echo "bench_mhc rc $?"; tail -3 $OUT/bench_mhc.log
tag=wr_16384_2048_512
timeout 90 ncu --kernel-name regex:topk_warp_rows --launch-skip 2 --launch-count 1 --section SourceCounters \
  --section WarpStateStats --section SpeedOfLight --section Occupancy -o /tmp/rep_$tag \
  python3 $S/prof_topk.py 16384 2048 512 > $OUT/ncu_$tag.log 2>&1; echo "ncu $tag rc $?"
ncu -i /tmp/rep_$tag.ncu-rep --page source --csv --print-source sass 2>&1 | gzip > $OUT/sass_$tag.csv.gz
ncu -i /tmp/rep_$tag.ncu-rep --page details > $OUT/details_$tag.txt 2>&1
grep -E "Duration|DRAM Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|Achieved Occupancy|Executed Ipc" $OUT/details_$tag.txt
for c in "mhc_pre 16384 7168" "mhc_pre_delayed 16384 7168" "hc_head 4096 7168" "mhc_post_hc_head 4096 7168"; do
  tag=$(echo $c | tr ' ' _)
  timeout 45 ncu --kernel-name regex:tma --launch-skip 2 --launch-count 1 --section WarpStateStats --section SpeedOfLight \
    --section Occupancy --section MemoryWorkloadAnalysis python3 benchmarks/prof_mhc.py $c > $OUT/details_$tag.txt 2>&1
  echo "ncu $tag rc $?"
  grep -E "^  [a-z_].*tma|Duration|DRAM Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|Achieved Occupancy|L2 Hit" $OUT/details_$tag.txt | head -12
done
