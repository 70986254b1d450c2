#!/usr/bin/env bash
# Session 14, call 1: gtest of main (fcf1d46: CudaMhc at T = 2600 first run), wait-cycle trace of the TMA kernel
# (trace build), ncu of the seam with and without the norm at T = 16384, A/B reference numbers of main.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/main .carry/wheels/*.whl
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/trace .carry/w/trace/*.whl
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
gunzip -f .carry/bin/test_cuda_launchers.gz
(TAIL=3 timeout 150 scripts/gpu_check.sh info gtest; echo "gpu_check rc $?") > $OUT/gtest.log 2>&1
grep -E "PASSED|FAILED|rc " $OUT/gtest.log | head; grep -c "CudaMhc.*2600" /tmp/dsv4ext-gpu-logs/logs/*.log
for c in "mhc_post_hc_head 1 16384" "mhc_post_hc_head 0 16384" "hc_head 0 16384" "mhc_post_hc_head 1 4096" "mhc_post_hc_head 0 4096" "mhc_pre_delayed 0 16384" "mhc_pre_delayed 0 4096" "hc_head 0 4096"; do
  PYTHONPATH=/tmp/ab/trace timeout 60 python3 .carry/s14/run14.py $c 2>&1 | tail -18
done > $OUT/trace.log; grep -c TRACE $OUT/trace.log
export PYTHONPATH=/tmp/ab/main
python3 .carry/s14/ab14.py main "4096 16384" 2>&1 | tee $OUT/ab_main.log
for n in 1 0; do
  timeout 150 ncu --kernel-name regex:tma --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section SourceCounters python3 .carry/s14/run14.py mhc_post_hc_head $n 16384 > $OUT/ncu_seam_norm$n.txt 2>&1
  echo "== norm $n"; grep -E "Duration|DRAM Throughput|Achieved Occupancy|Warp Cycles Per Issued|Issued Warp|No Eligible" $OUT/ncu_seam_norm$n.txt | head -10
done
