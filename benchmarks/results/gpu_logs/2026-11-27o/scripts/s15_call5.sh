#!/usr/bin/env bash
# Session 15, call 5: p7 = mhc_pre and mhc_pre_delayed at D = 7168 on the TMA kernel (32-token tiles, the tf32 chains
# on mma.sync for 24 rows, a 4-slot ring, the re-read collapse with one d-chunk a thread, the ring collapse) against
# hd (3cb88fb): smoke (stop on failure), the mhc_pre / delayed / fused CUDA tests on p7, A/B at D = 7168.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in hd p7; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27o/scripts
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/p7 timeout 150 python3 $S/smoke15.py mhc_pre,mhc_pre_delayed,mhc_fused_post_pre 2>&1 | tail -4 | tee $OUT/smoke.log; rc=${PIPESTATUS[0]}
echo "smoke rc $rc"; [ $rc -eq 0 ] || exit 1
for rep in 1 2; do for w in hd p7; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/ab15.py $w "1024 2048 4096 16384 65536" 7168 mhc_pre,mhc_pre_delayed,mhc_fused_post_pre; done; done 2>&1 | tee $OUT/ab7168.log
(cd tests/python && PYTHONPATH=/tmp/ab/p7 timeout 250 python3 -m pytest -q -x -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_p7.log
