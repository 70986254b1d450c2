#!/usr/bin/env bash
# Session 29, call 6: pm (main's mhc_post after call 5: warp slices of 2 chunks a lane from 256 tokens, of 1 below)
# and ph (a block per 128-chunk tile of the hidden dim over tokens y, y + 2048, ...; one destination stream at a time)
# against xd: the same bits, kernel time (pm two rounds, ph one), pm's post tests and those of the ops that launch it.
# Carry .carry/w/xd, .carry/so.tar.xz (variant_so_xz.sh pm ph).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zzzz/scripts; Z=benchmarks/results/gpu_logs/2026-11-28zzz/scripts  # session 28's setup and det28
BASE=xd bash $Z/s28_setup.sh pm ph
PYTHONPATH=/tmp/ab/xd timeout 60 python3 $S/ab_post.py bits xd 2>&1 | tee $OUT/bits.log
for w in pm ph; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 $S/ab_post.py bits $w xd; done 2>&1 | tee -a $OUT/bits.log
rm -f $OUT/post_bits_xd.pt
for w in xd pm ph xd pm; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 $S/ab_post.py time $w; done 2>&1 | tee $OUT/ab.log
(cd tests/python && PYTHONPATH=/tmp/ab/pm timeout 170 python3 -m pytest -q -p no:cacheprovider test_mhc_post.py \
  test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_mhc_post_hc_head.py 2>&1 | tail -3) | tee $OUT/tests.log
