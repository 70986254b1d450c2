#!/usr/bin/env bash
# Session 31, the one call after call 1 that found a machine: on an H100, main's kernels (20da5d9 = 9b3696b's)
# through bench_mhc --no-compile and bench_topk (s31_call2.sh without info / check), then on either card the fixed
# probe and the delayed op's peers rows (s31_combo.sh). Carry [".carry/wheels"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-12-07/scripts
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
if grep -q H100 $OUT/gpu.txt; then
  rm -rf /tmp/site0 && python3 -m pip install -q --no-index --no-deps --target /tmp/site0 .carry/wheels/*.whl
  PYTHONPATH=/tmp/site0 timeout 200 python3 benchmarks/bench_mhc.py --no-compile --out $OUT/mhc > $OUT/bench_mhc.log 2>&1
  echo "bench_mhc rc $?"
  PYTHONPATH=/tmp/site0 timeout 120 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1
  echo "bench_topk rc $?"
fi
OUT=$OUT/combo timeout 250 bash $S/s31_combo.sh
