#!/usr/bin/env bash
# Session 15, call 1: g7 = hc_head and the fused seam at D = 7168 on the TMA kernel (32-token held tiles, the tf32
# chains on mma.sync), against base (51ad0d7): smoke (stop on failure), the hc_head / seam CUDA tests on g7 (the
# D = 4096 spans of 5edb763 included), A/B of hc_head and mhc_post_hc_head at D = 7168 (and 4096 at two T).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in base g7; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27o/scripts
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/g7 timeout 120 python3 $S/smoke15.py 2>&1 | tail -20 | tee $OUT/smoke.log; rc=${PIPESTATUS[0]}
echo "smoke rc $rc"; [ $rc -eq 0 ] || exit 1
(cd tests/python && PYTHONPATH=/tmp/ab/g7 timeout 200 python3 -m pytest -q -x -p no:cacheprovider test_hc_head.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_g7.log
for rep in 1 2; do for w in base g7; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/ab15.py $w "1024 1536 2048 4096 16384 65536" 7168 hc_head,mhc_post_hc_head; done; done 2>&1 | tee $OUT/ab7168.log
for w in base g7; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 $S/ab15.py $w "4096 16384" 4096 hc_head,mhc_post_hc_head; done 2>&1 | tee $OUT/ab4096.log
