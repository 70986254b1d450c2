#!/usr/bin/env bash
# Session 15, call 9: the per-D thresholds (min_tokens: D = 7168 mhc_pre / delayed from 512, the seam from 1024) as
# landed: the across-kernels tests (new spans of 511 / 512 and 1023 / 1024 tokens at D = 7168) and the D = 7168 cases.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
rm -rf /tmp/ab/th; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/th .carry/w/th/*.whl
(cd tests/python && PYTHONPATH=/tmp/ab/th timeout 200 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py -k "cuda and (across or 7168)" 2>&1 | tail -2) | tee $OUT/tests_th.log
