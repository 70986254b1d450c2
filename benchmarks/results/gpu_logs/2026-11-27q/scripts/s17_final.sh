#!/usr/bin/env bash
# Session 17, final call: the landed build (scripts/build_wheel.sh at 91a0b25): bench_mhc at D = 4096 and 7168 (one
# build for both tables), test_cuda_nan_in_fn (NaNs in fn on every mhc_pre path), racecheck over race16.py.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
rm -rf /tmp/ab/l17; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/l17 .carry/wheels/*.whl
S16=benchmarks/results/gpu_logs/2026-11-27p/scripts
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/l17 timeout 330 python3 benchmarks/bench_mhc.py --no-compile --out $OUT/mhc > $OUT/bench_mhc.log 2>&1; echo "bench_mhc rc $?"
(cd tests/python && PYTHONPATH=/tmp/ab/l17 timeout 100 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py -k nan_in_fn 2>&1 | tail -2) | tee $OUT/tests_nan.log
PYTHONPATH=/tmp/ab/l17 timeout 130 compute-sanitizer --tool racecheck --error-exitcode 1 python3 $S16/race16.py > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -2 $OUT/racecheck.log
