#!/usr/bin/env bash
# Session 31: the peers table from main's kernels (20da5d9 = 9b3696b's; the wheel's Python from a298684: the
# torch_compile peer, mhc_pre_delayed in the table): FlashInfer 0.7.2 (JIT), CUB, torch.compile.
# Carry [".carry/wheels", ".carry/peers"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
TAIL=6 timeout 560 scripts/gpu_check.sh peers peers-bench
