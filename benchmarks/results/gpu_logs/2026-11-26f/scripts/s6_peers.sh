#!/usr/bin/env bash
# Session 2026-11-26 (6): the peers table (FlashInfer 0.7.2, trimmed by scripts/fetch_peers.sh) beside the final build.
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
TAIL=4 timeout 330 scripts/gpu_check.sh peers
export PYTHONPATH=/tmp/dsv4ext-site:/tmp/dsv4ext-peers/site FLASHINFER_WORKSPACE_BASE=/tmp/dsv4ext-peers TVM_FFI_CACHE_DIR=/tmp/dsv4ext-peers/tvm-ffi
timeout 200 python3 benchmarks/bench_peers.py --ops top_k_per_row_prefill top_k_per_row_decode --out $OUT/peers_topk > $OUT/bench_peers_topk.log 2>&1; echo "peers topk rc $?"
grep -E "^\| top" $OUT/peers_topk/peers.md | cut -d"|" -f2,4,5,6,8,10,12 | head -60
