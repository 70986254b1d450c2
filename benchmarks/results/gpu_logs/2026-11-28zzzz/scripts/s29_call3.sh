#!/usr/bin/env bash
# Session 29, call 3: the peers on the H200 (FlashInfer 0.7.2 from scripts/fetch_peers.sh, CUB DeviceBatchedTopK from
# scripts/build_cub_topk.sh) beside main's build (xd, in .carry/wheels) -> results/peers_h200. Carry .carry/wheels,
# .carry/peers.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
TAIL=4 timeout 580 scripts/gpu_check.sh info peers peers-bench
