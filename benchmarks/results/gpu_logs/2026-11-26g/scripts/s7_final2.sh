#!/usr/bin/env bash
# Session 2026-11-26 (7), final call 2: results/mhc and results/topk from the final build (bench_mhc with the eager reference, no torch.compile).
set -u
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
export PYTHONPATH=/tmp/site
for d in 4096 7168; do
  timeout 270 python3 benchmarks/bench_mhc.py --no-compile --hidden $d --out $OUT/mhc_$d > $OUT/bench_mhc_$d.log 2>&1; echo "bench_mhc $d rc $?"
done
