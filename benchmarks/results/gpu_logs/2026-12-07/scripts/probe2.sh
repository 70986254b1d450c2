#!/usr/bin/env bash
# Session 31: benchmarks/fn_stream_engine.cu after the fix of its collapse release (stores before the slot's
# release), with the no-fn-copy knockout rows (fn's bulk copies left out: the share of fn's L2 traffic). No carry.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
nvcc -gencode arch=compute_90a,code=sm_90a -O3 -std=c++20 --expt-relaxed-constexpr -I csrc -I csrc/cuda \
  -isystem /usr/local/cuda/include/cccl -o /tmp/fn_stream_engine benchmarks/fn_stream_engine.cu &&
  timeout -s KILL 200 /tmp/fn_stream_engine 16384 2>&1 | tee $OUT/fn_stream_engine.log
