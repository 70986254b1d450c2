#!/usr/bin/env bash
# Session 26 call 6: the landed build (s26: g7c's seam + gram_own in the TMA projection at D = 7168; its TMA kernels'
# SASS equals g8's, its pipeline kernels' source main's) against t24b: same bits (every mHC op, both D, norm on and
# off), `python -m dsv4ext check --device cuda`, the mHC / model CUDA tests call 5 did not run, memcheck over
# race16.py. Carry .carry/w/{t24b,s26}.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
for w in t24b s26; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export SB_T=1,16,64,1024,1601,4100
PYTHONPATH=/tmp/ab/t24b timeout 200 python3 $R/same_bits18.py t24b 2>&1 | tail -1
PYTHONPATH=/tmp/ab/s26 timeout 200 python3 $R/same_bits18.py s26 t24b 2>&1 | tail -1 | tee $OUT/same_bits.log
rm -f $OUT/*.pt
export PYTHONPATH=/tmp/ab/s26
timeout 120 python3 -m dsv4ext check --device cuda 2>&1 | tail -n3 | tee $OUT/check.log
(cd tests/python && timeout 240 python3 -m pytest -q -p no:cacheprovider test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_model_v41.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 python3 $P/race16.py > $OUT/memcheck_race16.log 2>&1; echo "memcheck rc $?"; tail -n1 $OUT/memcheck_race16.log
