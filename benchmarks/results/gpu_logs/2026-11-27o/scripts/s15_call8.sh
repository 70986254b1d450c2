#!/usr/bin/env bash
# Session 15, call 8: th7 (th7_patch.py: at D = 7168 the TMA kernel from 512 tokens for mhc_pre / delayed, from 1024
# for hc_head and the seam) against the landed build: A/B at T = 512 .. 1280, the across-kernels tests on th7.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in final th7; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27o/scripts
for rep in 1 2; do for w in final th7; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/ab15.py $w "512 768 1024 1280" 7168 mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head; done; done 2>&1 | tee $OUT/ab7168.log
(cd tests/python && PYTHONPATH=/tmp/ab/th7 timeout 120 python3 -m pytest -q -x -p no:cacheprovider test_mhc_pre.py test_hc_head.py test_mhc_post_hc_head.py test_mhc_fused_post_pre.py -k "cuda and across" 2>&1 | tail -2) | tee $OUT/tests_th7.log
