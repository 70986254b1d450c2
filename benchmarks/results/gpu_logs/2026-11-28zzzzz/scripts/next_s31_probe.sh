#!/usr/bin/env bash
# Prepared in session 30 (not run): two feasibility probes for the design in benchmarks/NOTES.md, session 2026-11-28
# (30), built on the GPU machine from the checkout (no carry needed):
#  - benchmarks/cluster_occupancy.cu: how many clusters of 1 .. 16 CTAs with the TMA kernel's footprint (one CTA an
#    SM) run at once (7 of 16 today: 112 of 132 SMs);
#  - benchmarks/fn_stream_engine.cu: mhc_pre_delayed without the norm on an engine that streams fn's bf16 parts from
#    L2 with every stage (D = 4096 and 7168, 1 or 2 ranks an item, 4 or 6 stages, 112 or all SMs): checked
#    (layer_input bitwise, partials against float64) and timed against 10 T D bytes at the copy rate.
# If the 7168 rows reach >= 85 % of the floor, the engine is worth building into mhc_tma_kernel.cuh (with the D = 7168
# arithmetic moved to bf16 parts in the pipeline kernel too, for batch invariance); if they stay near today's 43 %,
# the consumer stage is not the per-use split but the stage's structure itself.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
NV="nvcc -gencode arch=compute_90a,code=sm_90a -O3 -std=c++20 --expt-relaxed-constexpr -I csrc -I csrc/cuda -isystem /usr/local/cuda/include/cccl"
$NV -o /tmp/cluster_occupancy benchmarks/cluster_occupancy.cu && timeout -s KILL 60 /tmp/cluster_occupancy 2>&1 | tee $OUT/cluster_occupancy.log
$NV -o /tmp/fn_stream_engine benchmarks/fn_stream_engine.cu && timeout -s KILL 240 /tmp/fn_stream_engine 16384 2>&1 | tee $OUT/fn_stream_engine.log
