#!/usr/bin/env bash
# Session 22, call 2. td2 (trace_decode_td2_patch.py: td's stamps as a sequence, plus stamps inside each pick, digit pass
# and the ordered write's counts) with trace_decode.py; the whole test_cuda_launchers built with the g8 diff (.carry/bin).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
V=benchmarks/results/gpu_logs/2026-11-27v/scripts
U=benchmarks/results/gpu_logs/2026-11-27u/scripts
for w in td2; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/td2 timeout 60 python3 $U/trace_decode.py 2>&1 | tee $OUT/trace_decode_td2.log
gunzip -f .carry/bin/test_cuda_launchers.gz
timeout 120 .carry/bin/test_cuda_launchers --gtest_brief=1 2>&1 | tail -4 | tee $OUT/gtest.log
