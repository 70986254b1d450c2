#!/usr/bin/env bash
# Session 2026-11-26 (11), call 6: oc (the owners' hc_scale / hc_base and the delayed ops' carried weights loaded before
# the partials' wait, the 16 rank partials summed with their loads unrolled, the norm's weights loaded before the
# collapse's wait) against base (a84d206): the same bits for every mHC op (same_bits.py), decode A/B, mHC CUDA tests.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in base:.carry/wheels oc:.carry/w/oc; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
PYTHONPATH=/tmp/ab/base python3 .carry/s11/same_bits.py base && PYTHONPATH=/tmp/ab/oc python3 .carry/s11/same_bits.py oc base 2>&1 | tee $OUT/same_bits.log
for rep in 1 2 3; do for w in base oc; do PYTHONPATH=/tmp/ab/$w python3 .carry/s10/s10_ab.py $w mhc; done; done 2>&1 | tee $OUT/ab_mhc.log | grep -E "T=  1|T= 16" | grep -vE "post  "
(cd tests/python && PYTHONPATH=/tmp/ab/oc timeout 200 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_hc_head.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -2) | tee $OUT/tests_oc.log
