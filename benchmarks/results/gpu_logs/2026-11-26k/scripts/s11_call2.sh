#!/usr/bin/env bash
# Session 2026-11-26 (11), call 2: dk (the decode kernel: mhc_pre / mhc_pre_delayed / hc_head at D = 4096, T <= 16 over 128 CTAs,
# + the register Sinkhorn) and sk2 (the register Sinkhorn alone) against base (a84d206): the mHC + model CUDA tests on dk,
# decode A/B, memcheck / racecheck over race_mhc.py on dk.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in base:.carry/wheels sk2:.carry/w/sk2 dk:.carry/w/dk; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
(cd tests/python && PYTHONPATH=/tmp/ab/dk timeout 240 python3 -m pytest -q -x -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_hc_head.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_mhc_post_hc_head.py test_sinkhorn.py test_model.py test_model_v41.py -k cuda 2>&1 | tail -15) | tee $OUT/tests_dk.log
for rep in 1 2; do for w in base sk2 dk; do PYTHONPATH=/tmp/ab/$w python3 .carry/s10/s10_ab.py $w mhc; done; done 2>&1 | tee $OUT/ab_mhc.log | grep -E "T=  1|T= 16" | grep -vE "post  "
for tool in memcheck racecheck; do
  PYTHONPATH=/tmp/ab/dk timeout 90 compute-sanitizer --tool $tool --error-exitcode 1 python3 .carry/s10/race_mhc.py > $OUT/${tool}_dk.log 2>&1; echo "$tool rc $?"; tail -1 $OUT/${tool}_dk.log
done
