#!/usr/bin/env bash
# Session 2026-11-27 (13), call 5: pa = the final build with every post thread arriving on the stage's posted barrier
# (racecheck reported the one-lane arrive after __syncwarp as RAW hazards): racecheck / memcheck over race13b.py, the seam's
# CUDA tests, smoke, A/B against the final build (.carry/wheels).
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in final:.carry/wheels pa:.carry/w/pa; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
PYTHONPATH=/tmp/ab/pa timeout 60 python3 .carry/s13/smoke13.py 2>&1 | tee $OUT/smoke.log; rc=${PIPESTATUS[0]}; [ $rc -eq 0 ] || exit 1
for tool in racecheck memcheck; do
  PYTHONPATH=/tmp/ab/pa timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 --print-limit 4 python3 .carry/s13/race13b.py > $OUT/${tool}.log 2>&1; echo "$tool rc $?"; grep -E "SUMMARY|Error:" $OUT/${tool}.log | head -4
done
(cd tests/python && PYTHONPATH=/tmp/ab/pa timeout 120 python3 -m pytest -q -p no:cacheprovider test_mhc_post_hc_head.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
for rep in 1 2; do for w in final pa; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 .carry/s13/ab_head13.py $w "2560 4096 16384 65536"; done; done 2>&1 | tee $OUT/ab_head.log
