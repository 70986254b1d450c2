#!/usr/bin/env bash
# Session 17, call 5: Nsight Compute of the final kernels (build 91a0b25) where issue 12 / 14 / 16 goals are missed:
# duration, DRAM throughput, achieved occupancy, issue rate and the warp-state rule text (top stall), one launch each.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
rm -rf /tmp/ab/l17; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/l17 .carry/wheels/*.whl
S=benchmarks/results/gpu_logs/2026-11-27q/scripts
run() {  # name regex op T D norm
  PYTHONPATH=/tmp/ab/l17 timeout 60 ncu --kernel-name regex:$2 --launch-skip 2 --launch-count 1 --section SpeedOfLight \
    --section Occupancy --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
    python3 $S/ncu17.py $3 $4 $5 $6 > $OUT/ncu_$1.txt 2>&1
  echo "== $1 rc $?"; grep -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Achieved Occupancy|Warp Cycles Per Issued|Issued Warp Per|No Eligible|L2 Hit Rate " $OUT/ncu_$1.txt | head -9
}
run pre4096_16384 tma mhc_pre 16384 4096 1
run pre7168_16384 tma mhc_pre 16384 7168 1
run delayednn4096_4096 tma mhc_pre_delayed 4096 4096 0
run delayednn7168_16384 tma mhc_pre_delayed 16384 7168 0
run head7168_4096 tma hc_head 4096 7168 0
run seam4096_4096 tma mhc_post_hc_head 4096 4096 1
run pre4096_t1 pipeline mhc_pre 1 4096 1
run seam4096_t16 pipeline mhc_post_hc_head 16 4096 1
