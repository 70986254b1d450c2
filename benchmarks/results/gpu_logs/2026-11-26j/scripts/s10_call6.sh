#!/usr/bin/env bash
# Session 2026-11-26 (10), call 6: cs (the decode bf16 engine copies its fn slice into shared memory by cp.async before the
# projection) against fin (0aa6940, .carry/wheels): mHC CUDA tests on cs, decode A/B at D = 4096 and 7168, the anatomy.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in fin:.carry/wheels cs:.carry/w/cs; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
(cd tests/python && PYTHONPATH=/tmp/ab/cs timeout 200 python3 -m pytest -q -x -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_sinkhorn.py -k cuda 2>&1 | tail -1) | tee $OUT/tests_cs.log
for rep in 1 2; do for w in fin cs; do PYTHONPATH=/tmp/ab/$w python3 .carry/s10/s10_ab.py $w mhc; done; done 2>&1 | tee $OUT/ab_mhc.log | grep -E "T=  1|T= 16"
for w in fin cs; do PYTHONPATH=/tmp/ab/$w python3 .carry/s10/s10_ab.py $w mhc7; done 2>&1 | tee $OUT/ab_mhc7.log | grep -E "T=  1"
for w in fin cs; do PYTHONPATH=/tmp/ab/$w python3 .carry/s10/anatomy.py $w; done 2>&1 | tee $OUT/anatomy.log
