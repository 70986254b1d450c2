#!/usr/bin/env bash
# Session 2026-11-26 (12), final call 1: the landed build (scripts/build_wheel.sh: .carry/wheels, .carry/bin): check + every
# gtest, the mHC / Sinkhorn / model CUDA tests; A/B of mhc_post_hc_head's fused mode (two CTAs an SM) against wr3 (= 32af9f1).
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
gunzip -f .carry/bin/test_cuda_launchers.gz
TAIL=3 timeout 170 scripts/gpu_check.sh info check gtest > $OUT/gpu_check.log 2>&1; echo "gpu_check rc $?"
grep -E "passed|failed|PASSED|FAILED" $OUT/gpu_check.log | head -12
for w in final:.carry/wheels wr3:.carry/w/wr3; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
(cd tests/python && PYTHONPATH=/tmp/ab/final timeout 260 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_sinkhorn.py test_model.py test_model_v41.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
for rep in 1 2; do for w in wr3 final; do PYTHONPATH=/tmp/ab/$w python3 .carry/s12/ab_head.py $w "4096" "128 512 1023 1024"; done; done 2>&1 | tee $OUT/ab_fused_head.log
