#!/usr/bin/env bash
# Session 2026-11-26 (8), call 1: L2 prefetch of the stream's next groups in top-k (pf0 = HEAD, pf1/pf2/pf4 groups ahead):
# the refactored mHC batch-invariance GPU tests and the top-k CUDA tests on pf2, then the A/B.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv | tee $OUT/gpu.txt
for w in pf0 pf1 pf2 pf4; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/pf2 timeout 200 python3 -m pytest -q tests/python/test_mhc_pre.py tests/python/test_mhc_fused_post_pre.py -k "cuda and batch_invariant" 2>&1 | tail -3 | tee $OUT/tests_mhc.log
PYTHONPATH=/tmp/ab/pf2 timeout 200 python3 -m pytest -q -x tests/python/test_top_k_per_row_prefill.py tests/python/test_top_k_per_row_decode.py -k cuda 2>&1 | tail -2 | tee $OUT/tests_topk.log
ROUNDS=2 bash .carry/s6_ab.sh all pf0 pf1 pf2 pf4 2>&1 | tee $OUT/ab_topk.log
