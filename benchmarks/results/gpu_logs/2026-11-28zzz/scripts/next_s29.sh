#!/usr/bin/env bash
# Prepared in session 28 for the next session (not run). Base f4f = main after session 28 (carry .carry/w/f4f, or
# rebuild main's wheel into .carry/w/f4f); variants in one solid xz (.carry/so.tar.xz, scripts/variant_so_xz.sh xr d4f):
#  - xr (x_release_xr.diff): the seam's x slot released after its words' use and the proxy fence;
#  - d4f (d4096_fence_d4f.diff): a CTA fence before the D = 4096 wgmma projection's release (squares path).
# Run-to-run determinism (det28.py, 10 runs), A/B (two rounds) of the ops each touches, the repeat tests on each.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zzz/scripts; P=benchmarks/results/gpu_logs/2026-11-27p/scripts
BASE=f4f bash $S/s28_setup.sh xr d4f
DET_OPS=mhc_post_hc_head PYTHONPATH=/tmp/ab/xr timeout 60 python3 $S/det28.py xr 10 2>&1 | tee $OUT/det.log
PYTHONPATH=/tmp/ab/d4f timeout 60 python3 $S/det28.py d4f 10 4096 2>&1 | tee -a $OUT/det.log
for rep in 1 2; do
  for w in f4f xr; do for d in 4096 7168; do
    PYTHONPATH=/tmp/ab/$w timeout 40 python3 $P/ab16.py $w "4096 16384" $d mhc_post_hc_head; done; done
  for w in f4f d4f; do
    PYTHONPATH=/tmp/ab/$w timeout 60 python3 $P/ab16.py $w "4096 16384" 4096 mhc_pre,mhc_pre_delayed,hc_head; done
done 2>&1 | tee $OUT/ab.log
for w in xr d4f; do
  (cd tests/python && PYTHONPATH=/tmp/ab/$w timeout 120 python3 -m pytest -q -rf -p no:cacheprovider test_mhc_pre.py \
    test_mhc_post_hc_head.py -k "repeat_identical or batch_invariant_across" 2>&1 | tail -3)
done | tee $OUT/tests.log
