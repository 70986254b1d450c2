#!/usr/bin/env bash
# Session 2026-11-26 (10), final call 1: the scripts/build_wheel.sh build of 0aa6940 (PDL prologues, Sinkhorn step, no exit barrier):
# info, check, gtest, every CUDA pytest, memcheck over scripts/sanitize_ops.py.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
gunzip -f .carry/bin/test_cuda_launchers.gz
TAIL=3 timeout 200 scripts/gpu_check.sh info check gtest > $OUT/gpu_check.log 2>&1; echo "gpu_check rc $?"
grep -E "^===|passed|failed|PASSED|FAILED|NVIDIA" $OUT/gpu_check.log | head -40
cp /tmp/dsv4ext-gpu-logs/logs/check.log $OUT/ 2>/dev/null
export PYTHONPATH=/tmp/dsv4ext-site
timeout 330 python3 -m pytest -q -p no:cacheprovider tests/python -k cuda > $OUT/pytest_cuda.log 2>&1; echo "pytest rc $?"; tail -3 $OUT/pytest_cuda.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 1 python3 scripts/sanitize_ops.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -1 $OUT/memcheck.log
