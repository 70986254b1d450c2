#!/usr/bin/env bash
# Session 23, call 4 (run inline): racecheck over race23_decode.py's all-to-all shapes, a3. Carry .carry/w/a3.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
rm -rf /tmp/ab/a3; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/a3 .carry/w/a3/*.whl
for s in "0 1" "3"; do
  PYTHONPATH=/tmp/ab/a3 timeout 270 compute-sanitizer --tool racecheck --error-exitcode 1 python3 benchmarks/results/gpu_logs/2026-11-27w/scripts/race23_decode.py $s > $OUT/racecheck_$(echo $s | tr ' ' _).log 2>&1
  echo "shapes $s rc $?"; tail -n2 $OUT/racecheck_$(echo $s | tr ' ' _).log
done
