#!/usr/bin/env bash
# Session 21, call 5: wg (warp_groups_wg_patch.py, timing only: rows of 513-2048 columns on warp groups, TOPK_WG)
# A/B, two rounds, with its top-k CUDA tests under TOPK_WG=1 and 2; then the landed build l21b (19ba4fc: the seam's
# Gram in its post warpgroup, the release fences): smoke, the mHC and model CUDA tests,
# memcheck / racecheck / synccheck over race20s.py.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
U=benchmarks/results/gpu_logs/2026-11-27u/scripts; S15=benchmarks/results/gpu_logs/2026-11-27o/scripts
T=benchmarks/results/gpu_logs/2026-11-27t/scripts
for w in wg l21b; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
for rep in 1 2; do for m in 0 1 2; do
  TOPK_WG=$m PYTHONPATH=/tmp/ab/wg timeout 60 python3 $U/ab_wg.py wg$m
done; done 2>&1 | tee $OUT/ab_wg.log
for m in 1 2; do
  (cd tests/python && TOPK_WG=$m PYTHONPATH=/tmp/ab/wg timeout 80 python3 -m pytest -q -x -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -1) | tee -a $OUT/tests_wg.log
done
PYTHONPATH=/tmp/ab/l21b timeout 150 python3 $S15/smoke15.py mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head,mhc_fused_post_pre 2>&1 | tail -1 | tee $OUT/smoke.log
(cd tests/python && PYTHONPATH=/tmp/ab/l21b timeout 150 python3 -m pytest -q -p no:cacheprovider test_mhc_post_hc_head.py test_hc_head.py test_mhc_pre.py test_model.py -k cuda 2>&1 | tail -1) | tee $OUT/tests.log
for tool in memcheck racecheck synccheck; do
  PYTHONPATH=/tmp/ab/l21b timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 python3 $T/race20s.py > $OUT/$tool.log 2>&1
  echo "$tool rc $?"; tail -1 $OUT/$tool.log
done
cd $OUT && tar czf s21c5.tgz *.log && rm -f memcheck.log racecheck.log synccheck.log
