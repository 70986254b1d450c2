#!/usr/bin/env bash
# Session 21, call 2: check and every gtest (gpu_check.sh installs .carry/wheels: call 1 carried only .carry/w/l21)
# and bench_mhc.py --no-compile on the landed build (a4c66d8, the Gram warpgroup): results/mhc.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
rm -rf /tmp/ab/l21; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/l21 .carry/w/l21/*.whl
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
gunzip -f .carry/bin/test_cuda_launchers.gz
TAIL=3 timeout 200 scripts/gpu_check.sh info check gtest > $OUT/gpu_check.log 2>&1; echo "gpu_check rc $?"
grep -E "passed|failed|PASSED|FAILED|exit" $OUT/gpu_check.log | head -14
PYTHONPATH=/tmp/ab/l21 timeout 400 python3 benchmarks/bench_mhc.py --no-compile --out $OUT/mhc > $OUT/bench_mhc.log 2>&1; echo "bench_mhc rc $?"
tail -5 $OUT/bench_mhc.log
