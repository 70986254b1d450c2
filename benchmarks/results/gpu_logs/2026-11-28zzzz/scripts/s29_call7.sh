#!/usr/bin/env bash
# Session 29, call 7: pg (pm with a 2-D grid: x = 4 slices of a token's row, y = tokens; no 64-bit division before
# the first load) against pm and ph in one call: the same bits as xd, kernel time (one round). Carry .carry/w/xd,
# .carry/so.tar.xz (variant_so_xz.sh pg pm ph).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zzzz/scripts; Z=benchmarks/results/gpu_logs/2026-11-28zzz/scripts  # session 28's setup and det28
BASE=xd bash $Z/s28_setup.sh pg pm ph
PYTHONPATH=/tmp/ab/xd timeout 40 python3 $S/ab_post.py bits xd 2>&1 | tee $OUT/bits.log
PYTHONPATH=/tmp/ab/pg timeout 40 python3 $S/ab_post.py bits pg xd 2>&1 | tee -a $OUT/bits.log
rm -f $OUT/post_bits_xd.pt
for w in pg pm ph pg; do PYTHONPATH=/tmp/ab/$w timeout 40 python3 $S/ab_post.py time $w; done 2>&1 | tee $OUT/ab.log
