#!/usr/bin/env bash
# Session 2026-11-26 (7), call 1: the fused ops composed from 1024 tokens (.carry/w/fc) against main (.carry/w/u4).
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
for w in u4 fc; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/fc timeout 300 python3 -m pytest -q -x tests/python/test_mhc_fused_post_pre.py tests/python/test_mhc_fused_post_pre_delayed.py -k cuda 2>&1 | tail -5
for rep in 1 2; do for w in u4 fc; do PYTHONPATH=/tmp/ab/$w timeout 120 python3 .carry/ab_fused.py $w "4096 7168" "512 1024 4096 16384 65536"; done; done 2>&1 | tee $OUT/ab_fused.log
