#!/usr/bin/env bash
# Session 15, call 6: p8 = p7 with the 24-row projection split by row tiles (warps 0-1 row tile 0 and the squares,
# warps 2-3 row tiles 1-2, every warp every stage) against hd (3cb88fb) and p7: smoke, A/B at D = 7168, the mHC
# CUDA tests on p8 (every op: the hc_head / seam kernels' schedule is p7's).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in hd p7 p8; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27o/scripts
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/p8 timeout 150 python3 $S/smoke15.py mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head 2>&1 | tail -4 | tee $OUT/smoke.log; rc=${PIPESTATUS[0]}
echo "smoke rc $rc"; [ $rc -eq 0 ] || exit 1
for rep in 1 2; do for w in hd p7 p8; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/ab15.py $w "1024 4096 16384 65536" 7168 mhc_pre,mhc_pre_delayed,mhc_fused_post_pre; done; done 2>&1 | tee $OUT/ab7168.log
PYTHONPATH=/tmp/ab/p8 timeout 60 python3 $S/ab15.py p8 "4096 16384" 7168 hc_head,mhc_post_hc_head 2>&1 | tee -a $OUT/ab7168.log
(cd tests/python && PYTHONPATH=/tmp/ab/p8 timeout 300 python3 -m pytest -q -x -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_p8.log
