#!/usr/bin/env bash
# Session 18, call 1: fs1 / fs2 (thread 0 issues the first 1 / 2 stages, waits for stage 0 to land, then the
# rest of the early stages) against sl (the landed kernels, 5c9df72), D = 4096 and 7168, T = 4096 / 16384.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
for w in sl fs1 fs2; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for rep in 1 2; do for d in 4096 7168; do for w in sl fs1 fs2; do
  PYTHONPATH=/tmp/ab/$w timeout 90 python3 $P/ab16.py $w "4096 16384" $d hc_head,mhc_post_hc_head,mhc_pre,mhc_pre_delayed
done; done; done 2>&1 | tee $OUT/ab_fs.log
