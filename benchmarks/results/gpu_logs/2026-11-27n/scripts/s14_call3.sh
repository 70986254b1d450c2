#!/usr/bin/env bash
# Session 14, call 3: the landed build (scripts/build_wheel.sh; the held collapse's norm weights in shared memory):
# smoke (stop on failure), check + every gtest, the mHC and model CUDA tests, memcheck / racecheck (race14.py).
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
rm -rf /tmp/ab/final; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/final .carry/wheels/*.whl
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/final timeout 120 python3 .carry/s14/smoke14.py 2>&1 | tail -4 | tee $OUT/smoke.log; rc=${PIPESTATUS[0]}
echo "smoke rc $rc"; [ $rc -eq 0 ] || exit 1
gunzip -f .carry/bin/test_cuda_launchers.gz
TAIL=3 timeout 200 scripts/gpu_check.sh info check gtest > $OUT/gpu_check.log 2>&1; echo "gpu_check rc $?"
grep -E "passed|failed|PASSED|FAILED" $OUT/gpu_check.log | head -12
(cd tests/python && PYTHONPATH=/tmp/ab/final timeout 240 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_mhc_post.py test_model.py test_model_v41.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
for tool in memcheck racecheck; do
  PYTHONPATH=/tmp/ab/final timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 python3 .carry/s14/race14.py > $OUT/${tool}.log 2>&1; echo "$tool rc $?"; tail -1 $OUT/${tool}.log
done
