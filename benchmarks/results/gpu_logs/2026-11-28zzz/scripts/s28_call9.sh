#!/usr/bin/env bash
# Prepared in session 28 for the next session (not run: no device time left). xr = main + x_release_xr.diff: the
# seam's x slot released after its words were used and after the proxy fence (it was released right after its loads
# were issued) against f4f (main after session 28; carry .carry/w/m27 and the
# solid xz of f4f and xr, scripts/variant_so_xz.sh): run-to-run determinism of the seam
# (both D, 10 runs), A/B of the seam at both D (two rounds).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zzz/scripts; P=benchmarks/results/gpu_logs/2026-11-27p/scripts
bash $S/s28_setup.sh f4f xr
DET_OPS=mhc_post_hc_head PYTHONPATH=/tmp/ab/xr timeout 60 python3 $S/det28.py xr 10 2>&1 | tee $OUT/det.log
for rep in 1 2; do for w in f4f xr; do for d in 4096 7168; do
  PYTHONPATH=/tmp/ab/$w timeout 40 python3 $P/ab16.py $w "4096 16384" $d mhc_post_hc_head
done; done; done 2>&1 | tee $OUT/ab_seam.log
