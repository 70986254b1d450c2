#!/usr/bin/env bash
# Session 23, call 5: ta3 (trace_a3_patch.py: a3 with session 22's phase stamps, plus the all-to-all's send and receive
# stamps) with ../2026-11-27u/scripts/trace_decode.py; then the stall ratios of a3 at 1 x 65536 and 1 x 262144 k = 2048
# (../2026-11-27v/scripts/decode_ncu.py). Carry .carry/w/ta3, .carry/w/a3.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
for w in ta3 a3; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/ta3 timeout 60 python3 benchmarks/results/gpu_logs/2026-11-27u/scripts/trace_decode.py > $OUT/trace.log 2>&1; echo "trace rc $?"
grep -A2 -- "---" $OUT/trace.log | head -30
V=benchmarks/results/gpu_logs/2026-11-27v/scripts
for shape in "1 65536 2048" "1 262144 2048"; do
  tag=$(echo $shape | tr ' ' '_')
  PYTHONPATH=/tmp/ab/a3 timeout 120 ncu --target-processes all -k regex:topk --launch-skip 5 --launch-count 1 \
    --section WarpStateStats --section SchedulerStats --section SpeedOfLight --section LaunchStats --section InstructionStats \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
    python3 $V/decode_ncu.py $shape > $OUT/ncu_$tag.txt 2>&1
  echo "$shape rc $?"; grep -iE "Duration|stalled_(no_instruction|barrier|membar|long_scoreboard|short_scoreboard|wait|sleeping|branch_resolving|imc_miss)_per|Warp Cycles Per Issued|Executed Instructions  " $OUT/ncu_$tag.txt | head -14
done
