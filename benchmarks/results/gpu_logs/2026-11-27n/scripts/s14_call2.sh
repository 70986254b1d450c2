#!/usr/bin/env bash
# Session 14, call 2: sp (balanced spans + the norm weights in shared memory) and nw (the norm weights only) against
# main (fcf1d46): smoke (stop on failure), the mHC CUDA tests on sp, A/B two rounds.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in main nw sp; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/sp timeout 120 python3 .carry/s14/smoke14.py 2>&1 | tail -8 | tee $OUT/smoke.log; rc=${PIPESTATUS[0]}
echo "smoke rc $rc"; [ $rc -eq 0 ] || exit 1
(cd tests/python && PYTHONPATH=/tmp/ab/sp timeout 260 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_sp.log
for rep in 1 2; do for w in main nw sp; do PYTHONPATH=/tmp/ab/$w timeout 80 python3 .carry/s14/ab14.py $w "2560 4096 16384"; done; done 2>&1 | tee $OUT/ab.log
