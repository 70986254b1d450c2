#!/usr/bin/env bash
# Session 30, call 1: session 29's prepared r4 (deep ring at D = 4096: ../../2026-11-28zzzz/scripts/next_s30_r4.sh),
# then the new slice test of mhc_post on pm (main's kernels) for its first GPU run.
# Carry [".carry/w/pm", ".carry/so.tar.xz"] (so.tar.xz: r4 pg sc fc).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash benchmarks/results/gpu_logs/2026-11-28zzzz/scripts/next_s30_r4.sh
(cd tests/python && PYTHONPATH=/tmp/ab/pm timeout 90 python3 -m pytest -q -p no:cacheprovider test_mhc_post.py \
  -k slice_boundaries 2>&1 | tail -2) | tee $OUT/slice.log
