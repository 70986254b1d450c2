#!/usr/bin/env bash
# Session 26 call 7: test_cuda_launchers built from the landed tree (3193e79; the launchers driven without torch,
# against the CPU backend, among them the seam at D = 7168 with the norm, T = 150 and 1601). Carry .carry/bin.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
gunzip -f .carry/bin/test_cuda_launchers.gz && chmod +x .carry/bin/test_cuda_launchers
timeout 100 .carry/bin/test_cuda_launchers --gtest_brief=1 2>&1 | tail -n4 | tee $OUT/gtest.log
