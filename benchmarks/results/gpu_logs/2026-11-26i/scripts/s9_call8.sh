#!/usr/bin/env bash
# Session 2026-11-26 (9), call 8: the FlashInfer 0.7.2 peers (scripts/fetch_peers.sh, trimmed) beside the final build (.carry/wheels):
# the top-k rows of benchmarks/bench_peers.py (a longer JIT timeout than call 6).
set -uo pipefail
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
site=/tmp/ab/fin; peers_site=/tmp/dsv4ext-peers/site
python3 -m pip install -q --no-index --no-deps --target $site .carry/wheels/*.whl
export PYTHONUNBUFFERED=1

wheels=(.carry/peers/flashinfer_python-*.whl .carry/peers/apache_tvm_ffi-*.whl)
python3 -c 'import requests, pynvml' 2> /dev/null || wheels=(.carry/peers/*.whl)
python3 -m pip install -q --no-index --no-deps --no-compile --target $peers_site "${wheels[@]}"
export PYTHONPATH=$site:$peers_site FLASHINFER_WORKSPACE_BASE=/tmp/dsv4ext-peers TVM_FFI_CACHE_DIR=/tmp/dsv4ext-peers/tvm-ffi
start=$(date +%s)
timeout 380 python3 -m dsv4ext.bench.flashinfer_peer > $OUT/peers_jit.log 2>&1; echo "peers jit rc $? ($(( $(date +%s) - start )) s)"; tail -3 $OUT/peers_jit.log
timeout 200 python3 benchmarks/bench_peers.py --ops top_k_per_row_prefill top_k_per_row_decode --out $OUT/peers_topk > $OUT/bench_peers_topk.log 2>&1; echo "peers topk rc $? ($(( $(date +%s) - start )) s)"
grep -E "^\| top" $OUT/peers_topk/peers.md | cut -d"|" -f2,4,5,6,8,10,12 | head -70
