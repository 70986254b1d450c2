#!/usr/bin/env bash
# Session 24, call 4: clocks.py (the bimodal decode reading), then the peers table from the landed build (350de5b,
# .carry/wheels = t24): `scripts/gpu_check.sh info peers peers-bench` (FlashInfer 0.7.2 and CUB's DeviceBatchedTopK
# from scripts/fetch_peers.sh and scripts/build_cub_topk.sh) -> results/peers. Carry .carry/wheels, .carry/peers.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/t24 .carry/wheels/*.whl
PYTHONPATH=/tmp/ab/t24 timeout 60 python3 benchmarks/results/gpu_logs/2026-11-28x/scripts/clocks.py 2>&1 | tee $OUT/clocks.log
TAIL=6 timeout 520 scripts/gpu_check.sh info peers peers-bench
