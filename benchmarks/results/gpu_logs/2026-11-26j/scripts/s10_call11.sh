#!/usr/bin/env bash
# Session 2026-11-26 (10), call 11: the landed form (split for mhc_pre / mhc_pre_delayed only; no prefetch for the decode bf16
# engine's non-fused ops; scripts/build_wheel.sh build) against fin (0aa6940): check + gtest, every CUDA pytest of the mHC and
# model files, decode A/B (D = 4096 and 7168), memcheck / racecheck.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
gunzip -f .carry/bin/test_cuda_launchers.gz
TAIL=3 timeout 150 scripts/gpu_check.sh info check gtest > $OUT/gpu_check.log 2>&1; echo "gpu_check rc $?"
grep -E "passed|failed|PASSED|FAILED" $OUT/gpu_check.log | head -12
for w in new:.carry/wheels fin:.carry/w/fin; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
(cd tests/python && PYTHONPATH=/tmp/ab/new timeout 220 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_sinkhorn.py test_model.py test_model_v41.py -k cuda 2>&1 | tail -1) | tee $OUT/tests_new.log
for rep in 1 2; do for w in fin new; do PYTHONPATH=/tmp/ab/$w python3 .carry/s10/s10_ab.py $w mhc; done; done 2>&1 | tee $OUT/ab_mhc.log | grep -E "T=  1|T= 16" | grep -vE "post  "
for w in fin new; do PYTHONPATH=/tmp/ab/$w python3 .carry/s10/s10_ab.py $w mhc7; done 2>&1 | tee $OUT/ab_mhc7.log | grep -E "T=  1"
for tool in memcheck racecheck; do
  PYTHONPATH=/tmp/ab/new timeout 90 compute-sanitizer --tool $tool --error-exitcode 1 python3 .carry/s10/race_mhc.py > $OUT/${tool}_new.log 2>&1; echo "$tool rc $?"; tail -1 $OUT/${tool}_new.log
done
