#!/usr/bin/env bash
# Session 14, final call: the landed build (scripts/build_wheel.sh at the session's last kernel commit): smoke (stop on
# failure), check + every gtest, the mHC / model CUDA tests, memcheck over race14.py, racecheck over race14d.py
# (mhc_pre's re-read collapse), bench_mhc D = 4096.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
rm -rf /tmp/ab/final; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/final .carry/wheels/*.whl
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/final timeout 90 python3 .carry/s14/smoke14.py 2>&1 | tail -4 | tee $OUT/smoke.log; rc=${PIPESTATUS[0]}
echo "smoke rc $rc"; [ $rc -eq 0 ] || exit 1
gunzip -f .carry/bin/test_cuda_launchers.gz
TAIL=3 timeout 200 scripts/gpu_check.sh info check gtest > $OUT/gpu_check.log 2>&1; echo "gpu_check rc $?"
grep -E "passed|failed|PASSED|FAILED" $OUT/gpu_check.log | head -12
(cd tests/python && PYTHONPATH=/tmp/ab/final timeout 200 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_mhc_post.py test_model.py test_model_v41.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
PYTHONPATH=/tmp/ab/final timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 python3 .carry/s14/race14.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -1 $OUT/memcheck.log
PYTHONPATH=/tmp/ab/final timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 python3 .carry/s14/race14d.py > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -1 $OUT/racecheck.log
PYTHONPATH=/tmp/ab/final timeout 100 python3 benchmarks/bench_mhc.py --no-compile --hidden 4096 --out $OUT/mhc_4096 > $OUT/bench_mhc_4096.log 2>&1; echo "bench_mhc 4096 rc $?"
tar czf $OUT/results_mhc.tgz -C $OUT mhc_4096 && rm -rf $OUT/mhc_4096
