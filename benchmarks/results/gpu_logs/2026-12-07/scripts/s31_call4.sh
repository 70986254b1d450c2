#!/usr/bin/env bash
# Session 31, call 4: main's wheel (.carry/wheels) on the H100: compute-sanitizer memcheck and racecheck over
# scripts/sanitize_ops.py (gpu_check's `sanitize`), then Nsight Compute figures (`--clock-control none`, one launch
# after two) of the final kernels that miss a goal on the H100: DRAM %, SM %, L2 hit, achieved occupancy, cycles
# between a warp's issues, the warp-state (stall) table. Carry [".carry/wheels"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
TAIL=4 timeout 300 scripts/gpu_check.sh sanitize
rm -rf /tmp/ab/main; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/main .carry/wheels/*.whl
export PYTHONPATH=/tmp/ab/main
P=benchmarks/results/gpu_logs/2026-11-28zz/scripts/prof27.py
summ() { grep -E "^  [a-z_].*\(|Duration|DRAM Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|Achieved Occupancy|L2 Hit Rate" "$1" | head -8; }
for c in "tma hc_head 16384 7168 0" "tma mhc_post_hc_head 4096 4096 1" "tma mhc_post_hc_head 16384 7168 1" \
         "tma mhc_pre 16384 4096 1" "tma mhc_pre 16384 7168 1" "tma mhc_pre_delayed 16384 4096 1" \
         "tma mhc_pre_delayed 16384 7168 0" "pipeline mhc_post_hc_head 1 7168 1" "pipeline mhc_pre 1 4096 1"; do
  set -- $c; k=$1; shift; tag=$(echo "$*" | tr ' ' _)
  timeout 60 ncu --clock-control none --kernel-name regex:$k --launch-skip 2 --launch-count 1 --section WarpStateStats \
    --section SpeedOfLight --section Occupancy --section MemoryWorkloadAnalysis python3 $P "$@" > $OUT/details_$tag.txt 2>&1
  echo "ncu $tag rc $?"; summ $OUT/details_$tag.txt
done
T=benchmarks/results/gpu_logs/2026-11-28zz/scripts/prof_topk.py
for c in "topk_warp_rows 16384 2048 512" "topk_kernel 8192 8192 512" "topk_kernel 4096 32768 2048"; do
  set -- $c; k=$1; shift; tag=topk_$(echo "$*" | tr ' ' _)
  timeout 60 ncu --clock-control none --kernel-name regex:$k --launch-skip 2 --launch-count 1 --section WarpStateStats \
    --section SpeedOfLight --section Occupancy python3 $T "$@" > $OUT/details_$tag.txt 2>&1
  echo "ncu $tag rc $?"; summ $OUT/details_$tag.txt
done
