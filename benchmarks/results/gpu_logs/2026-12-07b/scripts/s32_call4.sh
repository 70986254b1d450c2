#!/usr/bin/env bash
# Session 32, call 4: the peers table from main's kernels (5e53c0f; the wheel of call 3) with the torch_compile peer
# and mhc_pre_delayed (first GPU run of session 31's peers code): FlashInfer 0.7.2 (JIT), CUB, torch.compile.
# Carry [".carry/wheels", ".carry/peers"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
TAIL=6 timeout 570 scripts/gpu_check.sh peers peers-bench
