#!/usr/bin/env bash
# Session 2026-11-26 (10), call 4: finer clock64 trace of the decode projection and owner (tr2 = 0aa6940 + trace_patch2.py),
# and Nsight Compute stall reasons of the decode kernel (the build of 0aa6940, .carry/wheels).
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/tr2 .carry/w/tr2/*.whl
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/fin .carry/wheels/*.whl
export PYTHONUNBUFFERED=1
PYTHONPATH=/tmp/ab/tr2 python3 .carry/s10/trace.py > $OUT/trace2.log 2>&1
grep -B8 "== " $OUT/trace2.log | grep -E "TRACE2|==" 
grep -B8 "== " $OUT/trace2.log | grep -E "^TRACE " | tail -3
for c in "mhc_pre 16" "hc_head 1"; do
  PYTHONPATH=/tmp/ab/fin timeout 120 ncu --cache-control none -k regex:pipeline --launch-skip 8 --launch-count 1 \
    --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,smsp__cycles_active.avg,smsp__warps_launched.sum,sm__cycles_elapsed.max" \
    python3 .carry/s10/ncu_decode.py $c 4096 > "$OUT/ncu_stalls_${c// /_}.txt" 2>&1
  grep -E "ratio|sum|avg|max" "$OUT/ncu_stalls_${c// /_}.txt" | awk '$NF+0 > 0.05' | sort -k3 -n -r | head -16
done
