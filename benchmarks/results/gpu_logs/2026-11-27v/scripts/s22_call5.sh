#!/usr/bin/env bash
# Session 22, call 5. Main's kernels (g8 wheel): Nsight Compute warp-state and scheduler sections of the clustered
# decode kernel (1 x 65536 k = 2048, 64 x 65536 k = 2048, 1 x 262144 k = 2048) and of the warp-row kernel (64 x 2048):
# is the instruction fetch (stall "no instruction") what a row's chain waits on?
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
V=benchmarks/results/gpu_logs/2026-11-27v/scripts
rm -rf /tmp/ab/g8; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/g8 .carry/w/g8/*.whl
for shape in "1 65536 2048" "64 65536 2048" "1 262144 2048" "64 2048 512"; do
  tag=$(echo $shape | tr ' ' '_')
  PYTHONPATH=/tmp/ab/g8 timeout 120 ncu --target-processes all -k regex:topk --launch-skip 5 --launch-count 1 \
    --section WarpStateStats --section SchedulerStats --section SpeedOfLight --section LaunchStats --section InstructionStats \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
    python3 $V/decode_ncu.py $shape > $OUT/ncu_$tag.txt 2>&1
  echo "$shape rc $?"; grep -iE "Duration|stalled_(no_instruction|barrier|membar|long_scoreboard|short_scoreboard|wait|sleeping|branch_resolving|imc_miss)_per|Warp Cycles Per Issued|Issued Warp Per Scheduler|Executed Instructions  |Registers Per|Block Size|Grid Size" $OUT/ncu_$tag.txt | head -14
done
