#!/usr/bin/env bash
# Session 20, call 2: the landed build (scripts/build_wheel.sh at the cr commit: relaxed prologue cluster barrier):
# smoke, check + every gtest, the mHC and model CUDA tests, memcheck / racecheck / synccheck over race19.py.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
rm -rf /tmp/ab/l20; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/l20 .carry/wheels/*.whl
S15=benchmarks/results/gpu_logs/2026-11-27o/scripts; S=benchmarks/results/gpu_logs/2026-11-27s/scripts
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/l20 timeout 150 python3 $S15/smoke15.py mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head,mhc_fused_post_pre 2>&1 | tail -3 | tee $OUT/smoke.log; rc=${PIPESTATUS[0]}
echo "smoke rc $rc"; [ $rc -eq 0 ] || exit 1
gunzip -f .carry/bin/test_cuda_launchers.gz
TAIL=3 timeout 200 scripts/gpu_check.sh info check gtest > $OUT/gpu_check.log 2>&1; echo "gpu_check rc $?"
grep -E "passed|failed|PASSED|FAILED|exit" $OUT/gpu_check.log | head -14
(cd tests/python && PYTHONPATH=/tmp/ab/l20 timeout 330 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_model.py test_model_v41.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
for tool in memcheck racecheck synccheck; do
  PYTHONPATH=/tmp/ab/l20 timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 python3 $S/race19.py > $OUT/$tool.log 2>&1
  echo "$tool rc $?"; tail -1 $OUT/$tool.log
done
cd $OUT && tar czf s20c2.tgz *.log gpu.txt && rm -f memcheck.log racecheck.log synccheck.log
