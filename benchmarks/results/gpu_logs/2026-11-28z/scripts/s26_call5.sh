#!/usr/bin/env bash
# Session 26 call 5: g7c (the seam's post warps sum the Gram of their own 8 tokens two entries an mma, gram_own:
# gram_in_post_7168_g7c.diff) and g8 (g7c + tile_squares' tensor-core Gram from gram_own: every tf32-engine kernel
# with the norm at D = 7168; gram_own_tile_squares_g8_patch.py) against t24b (main): same bits (g7c: the seam; g8:
# every mHC op, both D, norm on and off, decode and TMA sizes; g8 twice), A/B at D = 7168 (two rounds), the mHC and
# model CUDA tests on g8, memcheck / racecheck over race16.py on g8. Carry .carry/w/{t24b,g7c,g8}.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
for w in t24b g7c g8; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export SB_T=1,16,64,1024,1601,4100
PYTHONPATH=/tmp/ab/t24b timeout 200 python3 $R/same_bits18.py t24b 2>&1 | tail -1
PYTHONPATH=/tmp/ab/g7c timeout 200 python3 $R/same_bits18.py g7c t24b 2>&1 | tail -1 | tee $OUT/same_bits.log
PYTHONPATH=/tmp/ab/g8 timeout 200 python3 $R/same_bits18.py g8a 2>&1 | tail -1
PYTHONPATH=/tmp/ab/g8 timeout 200 python3 $R/same_bits18.py g8b g8a 2>&1 | tail -1 | tee -a $OUT/same_bits.log
PYTHONPATH=/tmp/ab/g8 timeout 200 python3 $R/same_bits18.py g8 t24b 2>&1 | tail -1 | tee -a $OUT/same_bits.log
rm -f $OUT/*.pt
for rep in 1 2; do for w in t24b g7c g8; do
  PYTHONPATH=/tmp/ab/$w timeout 150 python3 $P/ab16.py $w "4096 16384 65536" 7168 mhc_post_hc_head,mhc_pre,mhc_pre_delayed
done; done 2>&1 | tee $OUT/ab7168.log
for w in t24b g8; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $P/ab16.py $w "1 16 64 512" 7168 mhc_post_hc_head,mhc_pre,hc_head; done 2>&1 | tee $OUT/ab7168_small.log
export PYTHONPATH=/tmp/ab/g8
(cd tests/python && timeout 300 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_hc_head.py test_mhc_post_hc_head.py test_model.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
for t in memcheck racecheck; do timeout 200 compute-sanitizer --tool $t --error-exitcode 1 python3 $P/race16.py > $OUT/${t}_race16.log 2>&1; echo "$t rc $?"; tail -n1 $OUT/${t}_race16.log; done
