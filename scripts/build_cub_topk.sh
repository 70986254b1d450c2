#!/usr/bin/env bash
# Builds, on this machine, the benchmark-only CUB DeviceBatchedTopK peer (benchmarks/cub_batched_topk.cu,
# sm_90a) against the CCCL 3.6 headers inside the FlashInfer wheel that scripts/fetch_peers.sh put in
# .carry/peers, into .carry/peers/libdsv4ext_cub_topk.so (about a minute on 2 cores; run it after
# fetch_peers.sh, which empties .carry/peers). No torch: dsv4ext/bench/cub_peer.py calls it via ctypes.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unzip -q .carry/peers/flashinfer_python-*.whl 'flashinfer/data/cccl/*' -d "$tmp"
cccl=$tmp/flashinfer/data/cccl
"${NVCC:-/usr/local/cuda/bin/nvcc}" -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -Xcompiler=-fPIC -shared \
  -I"$cccl/cub" -I"$cccl/libcudacxx/include" -I"$cccl/thrust" \
  -o .carry/peers/libdsv4ext_cub_topk.so benchmarks/cub_batched_topk.cu
ls -l .carry/peers/libdsv4ext_cub_topk.so
