#!/usr/bin/env bash
# Session 21, call 1: the landed build (scripts/build_wheel.sh at a4c66d8: the Gram warpgroup, gw): smoke, check and
# every gtest, the mHC and model CUDA tests (with test_cuda_repeat_identical's first GPU run), memcheck / racecheck /
# synccheck over race20s.py, and benchmarks/fn_regs_mma.cu (prepared in session 20).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
rm -rf /tmp/ab/l21; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/l21 .carry/w/l21/*.whl
S15=benchmarks/results/gpu_logs/2026-11-27o/scripts; T=benchmarks/results/gpu_logs/2026-11-27t/scripts
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/l21 timeout 150 python3 $S15/smoke15.py mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head,mhc_fused_post_pre 2>&1 | tail -3 | tee $OUT/smoke.log; rc=${PIPESTATUS[0]}
echo "smoke rc $rc"; [ $rc -eq 0 ] || exit 1
gunzip -f .carry/bin/test_cuda_launchers.gz
TAIL=3 timeout 200 scripts/gpu_check.sh info check gtest > $OUT/gpu_check.log 2>&1; echo "gpu_check rc $?"
grep -E "passed|failed|PASSED|FAILED|exit" $OUT/gpu_check.log | head -14
(cd tests/python && PYTHONPATH=/tmp/ab/l21 timeout 330 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_model.py test_model_v41.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
for tool in memcheck racecheck synccheck; do
  PYTHONPATH=/tmp/ab/l21 timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 python3 $T/race20s.py > $OUT/$tool.log 2>&1
  echo "$tool rc $?"; tail -1 $OUT/$tool.log
done
(cd $OUT && tar czf s21c1.tgz *.log gpu.txt && rm -f memcheck.log racecheck.log synccheck.log)
nvcc -gencode arch=compute_90a,code=sm_90a -O3 -Xptxas -v -o /tmp/fn_regs_mma benchmarks/fn_regs_mma.cu > $OUT/fn_regs_mma.log 2>&1 && /tmp/fn_regs_mma >> $OUT/fn_regs_mma.log 2>&1; echo "fn_regs_mma rc $?"; tail -12 $OUT/fn_regs_mma.log
