#!/usr/bin/env bash
# Session 14, call 9: th (hc_head's and the fused seam's TMA thresholds at 1536 instead of 2560) against the landed
# build (f358cfa): hc_head and mhc_post_hc_head kernel times at T = 1536 / 2048 / 2560, two rounds; the hc_head and
# seam CUDA tests on th.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
rm -rf /tmp/ab/final /tmp/ab/th
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/final .carry/wheels/*.whl
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/th .carry/w/th/*.whl
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
for rep in 1 2; do for w in final th; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 .carry/s14/ab14.py $w "1536 2048 2560" 4096 hc_head,mhc_post_hc_head; done; done 2>&1 | tee $OUT/ab.log
(cd tests/python && PYTHONPATH=/tmp/ab/th timeout 150 python3 -m pytest -q -x -p no:cacheprovider test_hc_head.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -2) | tee $OUT/tests_th.log
