#!/usr/bin/env bash
# Session 2026-11-26 (7), final call 1: the final build (scripts/build_wheel.sh of HEAD): info, check, gtest, every CUDA pytest, memcheck + racecheck, bench_topk.
set -u
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
gunzip -f .carry/bin/test_cuda_launchers.gz
TAIL=3 timeout 200 scripts/gpu_check.sh info check gtest 2>&1 | grep -E "^===|passed|failed|PASSED|FAILED|ok|NVIDIA" | head -40
export PYTHONPATH=/tmp/dsv4ext-site
timeout 330 python3 -m pytest -q -p no:cacheprovider tests/python -k cuda > $OUT/pytest_cuda.log 2>&1; echo "pytest rc $?"; tail -3 $OUT/pytest_cuda.log
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 python3 scripts/sanitize_ops.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -1 $OUT/memcheck.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 1 python3 scripts/sanitize_ops.py > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -1 $OUT/racecheck.log
cp /tmp/dsv4ext-gpu-logs/logs/check.log $OUT/ 2>/dev/null
timeout 70 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"
