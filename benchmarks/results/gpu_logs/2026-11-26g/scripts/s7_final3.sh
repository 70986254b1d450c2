#!/usr/bin/env bash
# Session 2026-11-26 (7), final call 3: racecheck over scripts/sanitize_ops.py on the final build (final call 1's 150 s were too short).
set -u
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
export PYTHONPATH=/tmp/site
timeout 560 compute-sanitizer --tool racecheck --error-exitcode 1 python3 scripts/sanitize_ops.py > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -2 $OUT/racecheck.log
