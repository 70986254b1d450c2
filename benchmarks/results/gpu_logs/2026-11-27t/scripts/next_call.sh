#!/usr/bin/env bash
# Prepared in session 20 for the next session (not run): next_call.sh BASE VARIANT...: each variant wheel
# (.carry/w/NAME, built by /tmp/vb/build.sh NAME "python3 .../PATCH.py") against BASE (the landed wheel copied to
# .carry/w/BASE): repeat consistency and same bits at TMA and decode sizes, A/B of the seam and the TMA ops at D = 4096
# (two rounds), the mHC CUDA tests, memcheck / racecheck / synccheck over race20s.py. Variant prepared: gp
# (gram_in_post_gp_patch.py: the fused seam's Gram matrix in its post warpgroup) and rg (release_guard_rg_patch.py: a
# CTA fence before the ring and held collapses release a slot); e.g. `next_call.sh l21 gp rg` with carry .carry/w/l21
# (scripts/build_wheel.sh of main, copied), .carry/w/gp and .carry/w/rg.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
T=benchmarks/results/gpu_logs/2026-11-27t/scripts
base=$1; shift
for w in $base "$@"; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export SB_T=1,16,1024,1536,1601,2093,2600,4096,4100 SB_OPS=mhc_post_hc_head,hc_head,mhc_pre,mhc_pre_delayed,mhc_fused_post_pre
PYTHONPATH=/tmp/ab/$base timeout 200 python3 $R/same_bits18.py $base 2>&1 | tail -1
for w in "$@"; do PYTHONPATH=/tmp/ab/$w timeout 200 python3 $R/same_bits18.py $w $base 2>&1 | tail -1 | tee -a $OUT/same_bits.log; done
rm -f $OUT/bits_$base.pt
for rep in 1 2; do for w in $base "$@"; do
  PYTHONPATH=/tmp/ab/$w timeout 150 python3 $P/ab16.py $w "1536 4096 16384 65536" 4096 mhc_post_hc_head,mhc_pre,hc_head,mhc_pre_delayed
done; done 2>&1 | tee $OUT/ab.log
for w in "$@"; do
  (cd tests/python && PYTHONPATH=/tmp/ab/$w timeout 330 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_model.py test_model_v41.py -k cuda 2>&1 | tail -2) | tee -a $OUT/tests.log
  for tool in memcheck racecheck synccheck; do
    PYTHONPATH=/tmp/ab/$w timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 python3 $T/race20s.py > $OUT/${tool}_$w.log 2>&1
    echo "$w $tool rc $?"; tail -1 $OUT/${tool}_$w.log
  done
done
