#!/usr/bin/env bash
# Prepared in session 19 for the next session (not run): cr (cluster_arrive_relaxed_cr_patch.py over the landed
# kernels: the pipeline kernel's prologue cluster barrier arrives relaxed) against the landed build: same bits, A/B
# back to back and after a torch add (two rounds, both D), the mHC CUDA tests, memcheck / racecheck / synccheck over
# race19.py. Build first: /tmp/vb/build.sh cr "python3 .../cluster_arrive_relaxed_cr_patch.py"; carry .carry/w/l18
# (or the landed wheel under that name) and .carry/w/cr.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
S=benchmarks/results/gpu_logs/2026-11-27s/scripts
for w in l18 cr; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/l18 timeout 200 python3 $R/same_bits18.py l18 2>&1 | tail -1
PYTHONPATH=/tmp/ab/cr timeout 200 python3 $R/same_bits18.py cr l18 2>&1 | tail -1 | tee $OUT/same_bits.log
rm -f $OUT/bits_l18.pt
for rep in 1 2; do for d in 4096 7168; do for w in l18 cr; do
  PYTHONPATH=/tmp/ab/$w timeout 90 python3 $P/ab16.py $w "1 8 16 64" $d
  PYTHONPATH=/tmp/ab/$w timeout 90 python3 $S/ab_serial.py $w "1 16" $d
done; done; done 2>&1 | tee $OUT/ab.log
(cd tests/python && PYTHONPATH=/tmp/ab/cr timeout 330 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
for tool in memcheck racecheck synccheck; do
  PYTHONPATH=/tmp/ab/cr timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 python3 $S/race19.py > $OUT/$tool.log 2>&1
  echo "$tool rc $?"; tail -1 $OUT/$tool.log
done
