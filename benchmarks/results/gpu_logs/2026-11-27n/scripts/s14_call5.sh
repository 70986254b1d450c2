#!/usr/bin/env bash
# Session 14, call 5: cl (the re-read collapse refills a token's registers as soon as it is collapsed) against base
# (f0dcd91): the mhc_pre family's CUDA tests on cl (bits: the across-kernels tests), A/B two rounds.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in base cl; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
(cd tests/python && PYTHONPATH=/tmp/ab/cl timeout 240 python3 -m pytest -q -x -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_cl.log
for rep in 1 2; do for w in base cl; do PYTHONPATH=/tmp/ab/$w timeout 80 python3 .carry/s14/ab14.py $w "4096 16384 65536" 4096 mhc_pre,mhc_pre_delayed,mhc_fused_post_pre; done; done 2>&1 | tee $OUT/ab.log
