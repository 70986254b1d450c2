#!/usr/bin/env bash
# Session 31 (device budget short: failed machine starts cost it): the fixed probe with its knockout and 128-token
# rows (no carry needed), then bench_peers for mhc_pre_delayed only, ours against the new torch_compile
# peer (FlashInfer not installed here: its mhc_pre rows are in results/peers_h200). Carry [".carry/wheels"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
OUT=$OUT/probe timeout 130 bash benchmarks/results/gpu_logs/2026-12-07/scripts/probe2.sh
rm -rf /tmp/site && python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
PYTHONPATH=/tmp/site timeout 150 python3 benchmarks/bench_peers.py --ops mhc_pre_delayed --out $OUT/peers \
  > $OUT/peers.log 2>&1; echo "bench_peers rc $?"; tail -5 $OUT/peers.log
