#!/usr/bin/env bash
# Session 32, call 2: call 1 showed D = 7168 mhc_pre without the norm 695 -> 617 us at T = 16384 with swnf (one
# sample); nf is the patch that reaches D = 7168 (store_bf16x8 is every collapse's store). A/B at D = 7168, two rounds
# of m31 / nf / sw / swnf, the fused post+pre too; decode rows; D = 4096 mhc_pre_delayed two more rounds.
# Carry [".carry/w/m31", ".carry/so.tar.xz"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
grep -q H200 $OUT/gpu.txt && export AB_BW=4.17e12 || export AB_BW=2.95e12
Z=benchmarks/results/gpu_logs/2026-11-28zzz/scripts
BASE=m31 bash $Z/s28_setup.sh sw nf swnf
AB=benchmarks/results/gpu_logs/2026-11-27p/scripts/ab16.py
for rep in 1 2; do for w in m31 nf sw swnf; do
  PYTHONPATH=/tmp/ab/$w timeout 90 python3 $AB $w "4096 16384 65536" 7168 mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head,mhc_fused_post_pre
done; done 2>&1 | tee $OUT/ab7168.log
for w in m31 nf swnf; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $AB $w "1 8 64" 7168 mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head,mhc_fused_post_pre
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $AB $w "4096 16384" 4096 mhc_pre_delayed,mhc_fused_post_pre
done 2>&1 | tee $OUT/ab_more.log
