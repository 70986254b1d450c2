#!/usr/bin/env bash
# Session 2026-11-26 (8), call 2: Nsight Compute of the top-k decode kernels (HEAD = pf0): 64x262144 and 1x65536, k = 2048.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/pf0 .carry/w/pf0/*.whl 2>/dev/null
export PYTHONPATH=/tmp/ab/pf0
for shape in "decode 64 262144 2048" "decode 1 65536 2048" "prefill 8192 8192 512"; do
  tag=$(echo $shape | tr ' ' _)
  timeout 150 ncu --kernel-name regex:topk_kernel --launch-skip 2 --launch-count 1 --set full --import-source no \
    -o $OUT/ncu_$tag python3 .carry/prof_topk.py $shape > $OUT/ncu_$tag.log 2>&1; echo "ncu $tag rc $?"
  ncu -i $OUT/ncu_$tag.ncu-rep --page details > $OUT/ncu_$tag.txt 2>&1
  grep -E "^    Duration|DRAM Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|Achieved Occupancy|Registers Per|Executed Instructions  " $OUT/ncu_$tag.txt
  ncu -i $OUT/ncu_$tag.ncu-rep --page raw --csv --metrics smsp__pcsamp_warps_issue_stalled_barrier,smsp__pcsamp_warps_issue_stalled_long_scoreboard,smsp__pcsamp_warps_issue_stalled_membar,smsp__pcsamp_warps_issue_stalled_no_instruction,smsp__pcsamp_warps_issue_stalled_short_scoreboard,smsp__pcsamp_warps_issue_stalled_wait,smsp__pcsamp_warps_issue_stalled_selected,smsp__pcsamp_warps_issue_stalled_not_selected,smsp__pcsamp_warps_issue_stalled_lg_throttle,smsp__pcsamp_warps_issue_stalled_math_pipe_throttle,smsp__pcsamp_warps_issue_stalled_mio_throttle,smsp__pcsamp_warps_issue_stalled_dispatch_stall,smsp__pcsamp_warps_issue_stalled_sleeping > $OUT/stalls_$tag.csv 2>&1
done
