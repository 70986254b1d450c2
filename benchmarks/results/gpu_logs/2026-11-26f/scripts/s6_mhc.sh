#!/usr/bin/env bash
# Session 2026-11-26 (6): results/mhc.md refreshed from the final build (the mHC kernels of e631a5e), eager torch reference, no torch.compile.
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
export PYTHONPATH=/tmp/site
for d in 4096 7168; do
  timeout 270 python3 benchmarks/bench_mhc.py --no-compile --hidden $d --out $OUT/mhc_$d > $OUT/bench_mhc_$d.log 2>&1; echo "bench_mhc $d rc $?"
done
