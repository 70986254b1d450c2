#!/usr/bin/env bash
# Prepared in session 19 for the next session (not run): next_call.sh BASE VARIANT...: each variant wheel
# (.carry/w/NAME, built by /tmp/vb/build.sh NAME "python3 .../PATCH.py") against BASE (the landed wheel copied to
# .carry/w/BASE): same bits, A/B back to back and after a torch add (ab_serial.py; two rounds, both D), the mHC CUDA
# tests, memcheck / racecheck / synccheck over race19.py. Variants prepared: cr (cluster_arrive_relaxed_cr_patch.py),
# tb (fn_bulk_tb_patch.py); e.g. `next_call.sh l18 cr tb` (carry .carry/w/l18, .carry/w/cr, .carry/w/tb).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
S=benchmarks/results/gpu_logs/2026-11-27s/scripts
base=$1; shift
for w in $base "$@"; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/$base timeout 200 python3 $R/same_bits18.py $base 2>&1 | tail -1
for w in "$@"; do
  PYTHONPATH=/tmp/ab/$w timeout 200 python3 $R/same_bits18.py $w $base 2>&1 | tail -1 | tee -a $OUT/same_bits.log
done
rm -f $OUT/bits_$base.pt
for rep in 1 2; do for d in 4096 7168; do for w in $base "$@"; do
  PYTHONPATH=/tmp/ab/$w timeout 90 python3 $P/ab16.py $w "1 8 16 64" $d
  PYTHONPATH=/tmp/ab/$w timeout 90 python3 $S/ab_serial.py $w "1 16" $d
done; done; done 2>&1 | tee $OUT/ab.log
for w in "$@"; do
  (cd tests/python && PYTHONPATH=/tmp/ab/$w timeout 330 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -2) | tee -a $OUT/tests.log
  for tool in memcheck racecheck synccheck; do
    PYTHONPATH=/tmp/ab/$w timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 python3 $S/race19.py > $OUT/${tool}_$w.log 2>&1
    echo "$w $tool rc $?"; tail -1 $OUT/${tool}_$w.log
  done
done
