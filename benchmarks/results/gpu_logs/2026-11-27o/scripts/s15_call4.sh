#!/usr/bin/env bash
# Session 15, call 4: s1 = one TMA copy a stage (a (d, token, stream) map, box 32 x kTile x 4) against ga (623aca4)
# and base (51ad0d7): smoke, the mhc_pre / delayed / hc_head / seam CUDA tests on s1, A/B at D = 7168 and 4096.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in base ga s1; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27o/scripts
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/s1 timeout 120 python3 $S/smoke15.py 2>&1 | tail -3 | tee $OUT/smoke.log; rc=${PIPESTATUS[0]}
echo "smoke rc $rc"; [ $rc -eq 0 ] || exit 1
for rep in 1 2; do for w in base ga s1; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/ab15.py $w "1536 4096 16384 65536" 7168 hc_head,mhc_post_hc_head; done; done 2>&1 | tee $OUT/ab7168.log
for rep in 1 2; do for w in ga s1; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/ab15.py $w "4096 16384" 4096; done; done 2>&1 | tee $OUT/ab4096.log
(cd tests/python && PYTHONPATH=/tmp/ab/s1 timeout 280 python3 -m pytest -q -x -p no:cacheprovider test_hc_head.py test_mhc_post_hc_head.py test_mhc_pre.py test_mhc_pre_delayed.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_s1.log
