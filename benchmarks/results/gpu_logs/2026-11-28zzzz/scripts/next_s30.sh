#!/usr/bin/env bash
# Prepared in session 29 for the next session (not run: its device time ran out). Base pm = main after session 29
# (.carry/w/pm: b7f29f8's kernels); variants in one solid xz (variant_so_xz.sh pg sc fc):
#  - pg (post_2d_grid_pg.diff): mhc_post with a 2-D grid (no 64-bit division before the first load), after ph's
#    lead at 128-512 tokens (NOTES, session 29);
#  - sc (seam_compose_sc.diff): mhc_post_hc_head composed (mhc_post, then hc_head's pipeline on the stash) below 128
#    tokens at both D, now that the post takes 1.4 us at T = 1 (issue 14's decode goal: <= 6 us; D = 7168 7.8);
#  - fc (fused_compose_fc.diff): mhc_fused_post_pre and its delayed form composed at every T (issue 12: fused <= 8 us).
# The same bits as pm, kernel time (two rounds), the tests of the ops each touches, then the new slice test on pm.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1 AB_BW=4.17e12  # ab16.py's % at the H200's copy rate
S=benchmarks/results/gpu_logs/2026-11-28zzzz/scripts; Z=benchmarks/results/gpu_logs/2026-11-28zzz/scripts  # session 28's setup and det28
BASE=pm bash $Z/s28_setup.sh pg sc fc
PYTHONPATH=/tmp/ab/pm timeout 40 python3 $S/ab_post.py bits pm 2>&1 | tee $OUT/bits.log
PYTHONPATH=/tmp/ab/pg timeout 40 python3 $S/ab_post.py bits pg pm 2>&1 | tee -a $OUT/bits.log
export SB_T=1,2,3,4,8,13,16,17,64,100,127
SB_OPS=mhc_post_hc_head PYTHONPATH=/tmp/ab/pm timeout 60 python3 benchmarks/results/gpu_logs/2026-11-27r/scripts/same_bits18.py pm 2>&1 | tee -a $OUT/bits.log
SB_OPS=mhc_post_hc_head PYTHONPATH=/tmp/ab/sc timeout 60 python3 benchmarks/results/gpu_logs/2026-11-27r/scripts/same_bits18.py sc pm 2>&1 | tee -a $OUT/bits.log
SB_OPS=mhc_fused_post_pre,mhc_fused_post_pre_delayed PYTHONPATH=/tmp/ab/pm timeout 60 python3 benchmarks/results/gpu_logs/2026-11-27r/scripts/same_bits18.py pm 2>&1 | tee -a $OUT/bits.log
SB_OPS=mhc_fused_post_pre,mhc_fused_post_pre_delayed PYTHONPATH=/tmp/ab/fc timeout 60 python3 benchmarks/results/gpu_logs/2026-11-27r/scripts/same_bits18.py fc pm 2>&1 | tee -a $OUT/bits.log
for rep in 1 2; do
  for w in pm pg; do PYTHONPATH=/tmp/ab/$w timeout 40 python3 $S/ab_post.py time $w; done
  for w in pm sc fc; do for d in 4096 7168; do
    PYTHONPATH=/tmp/ab/$w timeout 40 python3 benchmarks/results/gpu_logs/2026-11-27p/scripts/ab16.py $w "1 8 16 64 127" $d mhc_post_hc_head,mhc_fused_post_pre; done; done
done 2>&1 | tee $OUT/ab.log
(cd tests/python
 PYTHONPATH=/tmp/ab/pm timeout 60 python3 -m pytest -q -p no:cacheprovider test_mhc_post.py -k slice_boundaries 2>&1 | tail -2
 PYTHONPATH=/tmp/ab/pg timeout 60 python3 -m pytest -q -p no:cacheprovider test_mhc_post.py 2>&1 | tail -2
 PYTHONPATH=/tmp/ab/sc timeout 120 python3 -m pytest -q -p no:cacheprovider test_mhc_post_hc_head.py 2>&1 | tail -2
 PYTHONPATH=/tmp/ab/fc timeout 150 python3 -m pytest -q -p no:cacheprovider test_mhc_fused_post_pre.py \
   test_mhc_fused_post_pre_delayed.py 2>&1 | tail -2) | tee $OUT/tests.log
