#!/usr/bin/env bash
# Session 15, call 2: g7b = g7 with the 4 streams' tf32 chains interleaved (fn loaded a k8 step at a time) and the seam's
# projection at 168 registers: smoke, the hc_head / seam CUDA tests, A/B against base at D = 7168.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in base g7b; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27o/scripts
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/g7b timeout 120 python3 $S/smoke15.py 2>&1 | tail -20 | tee $OUT/smoke.log; rc=${PIPESTATUS[0]}
echo "smoke rc $rc"; [ $rc -eq 0 ] || exit 1
(cd tests/python && PYTHONPATH=/tmp/ab/g7b timeout 200 python3 -m pytest -q -x -p no:cacheprovider test_hc_head.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_g7b.log
for rep in 1 2; do for w in base g7b; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/ab15.py $w "1024 1536 2048 4096 16384 65536" 7168 hc_head,mhc_post_hc_head; done; done 2>&1 | tee $OUT/ab7168.log
