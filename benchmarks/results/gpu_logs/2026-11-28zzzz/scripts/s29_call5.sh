#!/usr/bin/env bash
# Session 29, call 5: mhc_post by warp slices (post_warp_slices_pw2.diff; pw1 / pw2 / pw4 = 1 / 2 / 4 chunks of 8 d a
# lane) against xd (main): the same bits (ab_post.py bits: n 1 / 4 / 8, D with and without the 16-byte path,
# T = 0 .. 4097, misaligned mixes), kernel time two rounds (ab_post.py time), the post tests on each and the tests of
# the ops that launch it on pw2. Carry .carry/w/xd, .carry/so.tar.xz (variant_so_xz.sh pw1 pw2 pw4).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zzzz/scripts; Z=benchmarks/results/gpu_logs/2026-11-28zzz/scripts  # session 28's setup and det28
BASE=xd bash $Z/s28_setup.sh pw1 pw2 pw4
PYTHONPATH=/tmp/ab/xd timeout 60 python3 $S/ab_post.py bits xd 2>&1 | tee $OUT/bits.log
for w in pw1 pw2 pw4; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 $S/ab_post.py bits $w xd; done 2>&1 | tee -a $OUT/bits.log
for rep in 1 2; do for w in xd pw1 pw2 pw4; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $S/ab_post.py time $w; done; done 2>&1 | tee $OUT/ab.log
for w in pw1 pw2 pw4; do
  echo "== $w"
  (cd tests/python && PYTHONPATH=/tmp/ab/$w timeout 60 python3 -m pytest -q -x -p no:cacheprovider test_mhc_post.py 2>&1 | tail -2)
done | tee $OUT/tests.log
(cd tests/python && PYTHONPATH=/tmp/ab/pw2 timeout 100 python3 -m pytest -q -x -p no:cacheprovider \
  test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_mhc_post_hc_head.py 2>&1 | tail -2) | tee -a $OUT/tests.log
