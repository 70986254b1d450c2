#!/usr/bin/env bash
# Session 26 call 3: g7 (the fused seam's Gram matrix in its post warps at D = 7168, gram_half) against t24b (main):
# same bits (mhc_post_hc_head, both D, norm on and off, decode and TMA sizes; g7 twice for repeatability), A/B
# kernel time of the seam at D = 7168 (two rounds) and D = 4096 (one), the seam and model CUDA tests on g7,
# memcheck and racecheck over race16.py (the D = 7168 seam with and without the norm, hc_head). Carry
# .carry/w/{t24b,g7}.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
for w in t24b g7; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export SB_T=1,16,1024,1536,1601,2093,4096,4100 SB_OPS=mhc_post_hc_head
PYTHONPATH=/tmp/ab/t24b timeout 150 python3 $R/same_bits18.py t24b 2>&1 | tail -1
PYTHONPATH=/tmp/ab/g7 timeout 150 python3 $R/same_bits18.py g7a 2>&1 | tail -1
PYTHONPATH=/tmp/ab/g7 timeout 150 python3 $R/same_bits18.py g7b g7a 2>&1 | tail -1 | tee $OUT/same_bits.log
PYTHONPATH=/tmp/ab/g7 timeout 150 python3 $R/same_bits18.py g7 t24b 2>&1 | tail -1 | tee -a $OUT/same_bits.log
rm -f $OUT/*.pt
for rep in 1 2; do for w in t24b g7; do
  PYTHONPATH=/tmp/ab/$w timeout 150 python3 $P/ab16.py $w "4096 16384 65536" 7168 mhc_post_hc_head,hc_head
done; done 2>&1 | tee $OUT/ab7168.log
for w in t24b g7; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $P/ab16.py $w "4096 16384" 4096 mhc_post_hc_head; done 2>&1 | tee $OUT/ab4096.log
export PYTHONPATH=/tmp/ab/g7
(cd tests/python && timeout 240 python3 -m pytest -q -p no:cacheprovider test_mhc_post_hc_head.py test_hc_head.py test_model.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
for t in memcheck racecheck; do timeout 200 compute-sanitizer --tool $t --error-exitcode 1 python3 $P/race16.py > $OUT/${t}_race16.log 2>&1; echo "$t rc $?"; tail -n1 $OUT/${t}_race16.log; done
