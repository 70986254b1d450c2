#!/usr/bin/env bash
# Session 30, call 3: where the pipelined seam / fused op and their compositions cross at D = 4096 (call 2: at T = 127
# sc's composed seam 10.4 us against the pipeline's 14.3, fc's composed fused op 15.5 against 18.4; at T = 64 the
# pipeline wins), then session 29's prepared Nsight Compute profile (../../2026-11-28zzzz/scripts/next_s30_ncu.sh).
# Carry [".carry/w/pm", ".carry/so.tar.xz"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1 AB_BW=4.17e12
BASE=pm bash benchmarks/results/gpu_logs/2026-11-28zzz/scripts/s28_setup.sh sc fc
AB=benchmarks/results/gpu_logs/2026-11-27p/scripts/ab16.py
for rep in 1 2; do for w in pm sc fc; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $AB $w "64 72 80 88 96 104 112 120 127" 4096 mhc_post_hc_head,mhc_fused_post_pre
done; done 2>&1 | tee $OUT/cross.log
bash benchmarks/results/gpu_logs/2026-11-28zzzz/scripts/next_s30_ncu.sh 2>&1 | tee $OUT/ncu.log
