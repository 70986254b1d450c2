#!/usr/bin/env bash
# Session 2026-11-26 (6), final call 2: memcheck + racecheck of scripts/sanitize_ops.py, racecheck + synccheck of the top-k shapes.
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/dsv4ext-site .carry/wheels/*.whl
export PYTHONPATH=/tmp/dsv4ext-site
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 python3 scripts/sanitize_ops.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -2 $OUT/memcheck.log
for tool in racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 python3 .carry/race_topk2.py > $OUT/${tool}_topk.log 2>&1; echo "$tool topk rc $?"; tail -2 $OUT/${tool}_topk.log
done
