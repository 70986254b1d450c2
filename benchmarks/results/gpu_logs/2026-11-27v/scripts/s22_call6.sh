#!/usr/bin/env bash
# Session 22, call 6. pk2 (the working tree: the picks of clustered rows with one stream group go through one
# out-of-line cluster_pick) against g8 (main): ab_decode.py two rounds; pk2: race22_decode.py plain and under memcheck /
# racecheck, the top-k CUDA tests; Nsight Compute stall reasons of pk2 at 1 x 65536 k = 2048 (as call 5).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
V=benchmarks/results/gpu_logs/2026-11-27v/scripts
for w in g8 pk2; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/pk2 timeout 60 python3 $V/race22_decode.py 2>&1 | tail -3 | tee $OUT/race22_plain.log
for rep in 1 2; do for w in g8 pk2; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 $V/ab_decode.py $w; done; done 2>&1 | tee $OUT/ab_decode.log
PYTHONPATH=/tmp/ab/pk2 timeout 120 ncu --target-processes all -k regex:topk --launch-skip 5 --launch-count 1 \
  --section WarpStateStats --section SchedulerStats --section SpeedOfLight --section LaunchStats --section InstructionStats \
  --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
  python3 $V/decode_ncu.py 1 65536 2048 > $OUT/ncu_pk2_1_65536_2048.txt 2>&1
grep -iE "Duration|stalled_(no_instruction|barrier|membar|long_scoreboard|short_scoreboard|wait)_per|Warp Cycles Per Issued|Executed Instructions  " $OUT/ncu_pk2_1_65536_2048.txt
for tool in memcheck racecheck; do
  PYTHONPATH=/tmp/ab/pk2 timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 python3 $V/race22_decode.py > $OUT/${tool}.log 2>&1; echo "$tool rc $?"; tail -1 $OUT/${tool}.log
done
(cd tests/python && PYTHONPATH=/tmp/ab/pk2 timeout 150 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -1) | tee $OUT/tests_topk.log
