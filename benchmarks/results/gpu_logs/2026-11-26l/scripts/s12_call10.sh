#!/usr/bin/env bash
# Session 2026-11-26 (12), call 10: mend (hc_head's pipeline with the norm not instantiated for the fp32-fn engines; the
# kFusedHead kernels' register allocation changed, same instructions) against 407b56e (.carry/wheels): the head and compose
# CUDA tests; A/B of the final seam and hc_head, two rounds.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in main:.carry/wheels mend:.carry/w/mend; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
(cd tests/python && PYTHONPATH=/tmp/ab/mend timeout 200 python3 -m pytest -q -p no:cacheprovider test_mhc_post_hc_head.py test_hc_head.py -k cuda 2>&1 | tail -2; PYTHONPATH=/tmp/ab/mend timeout 200 python3 -m pytest -q -p no:cacheprovider test_mhc_fused_post_pre.py -k "compose or engines" 2>&1 | tail -2) | tee $OUT/tests_mend.log
for rep in 1 2; do for w in main mend; do PYTHONPATH=/tmp/ab/$w python3 .carry/s12/ab_head.py $w "4096 7168" "64 512 4096"; done; done 2>&1 | tee $OUT/ab_head.log
