#!/usr/bin/env bash
# Session 20, call 6: what the fused norm's Gram matrix costs the D = 4096 TMA projection (timing only, wrong values
# with the norm): ng (no_gram_timing_ng_patch.py over main) and hpng (over hp) against l20 (hp: call 5), T = 4096 / 16384 /
# 65536, two rounds.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts
for w in l20 ng hpng; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for rep in 1 2; do for w in l20 ng hpng; do
  PYTHONPATH=/tmp/ab/$w timeout 150 python3 $P/ab16.py $w "4096 16384 65536" 4096 mhc_pre,mhc_pre_delayed,mhc_fused_post_pre
done; done 2>&1 | tee $OUT/ab.log
