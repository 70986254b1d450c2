#!/usr/bin/env bash
# Session 16, final call: the landed build (scripts/build_wheel.sh at HEAD): smoke (every TMA op), check + every gtest,
# the across-kernels / D = 7168 / model CUDA tests, memcheck over race15.py, racecheck over race16.py, bench_mhc at
# D = 4096 and 7168 (one build for both tables).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
rm -rf /tmp/ab/final; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/final .carry/wheels/*.whl
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27p/scripts; S15=benchmarks/results/gpu_logs/2026-11-27o/scripts
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/final timeout 150 python3 $S15/smoke15.py mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head,mhc_fused_post_pre 2>&1 | tail -3 | tee $OUT/smoke.log; rc=${PIPESTATUS[0]}
echo "smoke rc $rc"; [ $rc -eq 0 ] || exit 1
gunzip -f .carry/bin/test_cuda_launchers.gz
TAIL=3 timeout 200 scripts/gpu_check.sh info check gtest > $OUT/gpu_check.log 2>&1; echo "gpu_check rc $?"
grep -E "passed|failed|PASSED|FAILED|exit" $OUT/gpu_check.log | head -14
(cd tests/python && PYTHONPATH=/tmp/ab/final timeout 150 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_model.py test_model_v41.py -k "cuda and (across or 7168 or model or graph)" 2>&1 | tail -2) | tee $OUT/tests.log
PYTHONPATH=/tmp/ab/final timeout 90 compute-sanitizer --tool memcheck --error-exitcode 1 python3 $S15/race15.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -1 $OUT/memcheck.log
PYTHONPATH=/tmp/ab/final timeout 120 compute-sanitizer --tool racecheck --error-exitcode 1 python3 $S/race16.py > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -1 $OUT/racecheck.log
PYTHONPATH=/tmp/ab/final timeout 330 python3 benchmarks/bench_mhc.py --no-compile --out $OUT/mhc > $OUT/bench_mhc.log 2>&1; echo "bench_mhc rc $?"
