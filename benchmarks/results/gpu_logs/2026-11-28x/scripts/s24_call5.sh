#!/usr/bin/env bash
# Session 24, call 5: the peers table again, every size replayed from CUDA graphs (bench_peers.py's graph_all; call 4
# timed calls above 64 tokens eagerly, so that ours and the peers read host dispatch and idle gaps, e.g. mhc_pre at
# 4096 x 4 x 4096 285 us against bench_mhc's ~80-100). .carry/wheels = t24b (350de5b's kernels + the bench change).
# `scripts/gpu_check.sh peers peers-bench` -> results/peers. Carry .carry/wheels, .carry/peers.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
TAIL=4 timeout 580 scripts/gpu_check.sh peers peers-bench
