#!/usr/bin/env bash
# Session 19, call 6: fn ready before the PDL wait in decode calls, two ways, against l18 (the landed cd35ace):
# sd = l18 + sd_env_patch.py (DSV4EXT_SD=1: decode on the staged engines, fn staged in shared memory by the whole CTA),
# ps = l18 + presplit_patch.py (the D = 4096 decode engine: each worker lane splits its own fn parts into shared
# memory before the wait). Same bits, A/B, ps's mHC CUDA tests.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
for w in l18:.carry/wheels sd:.carry/w/sd ps:.carry/w/ps; do
  rm -rf /tmp/ab/${w%%:*}; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl
done
PYTHONPATH=/tmp/ab/l18 timeout 200 python3 $R/same_bits18.py l18 2>&1 | tail -1
DSV4EXT_SD=1 PYTHONPATH=/tmp/ab/sd timeout 200 python3 $R/same_bits18.py sd l18 2>&1 | tail -1 | tee $OUT/same_bits.log
PYTHONPATH=/tmp/ab/ps timeout 200 python3 $R/same_bits18.py ps l18 2>&1 | tail -1 | tee -a $OUT/same_bits.log
rm -f $OUT/bits_l18.pt
for rep in 1 2; do
  for w in l18 sd ps; do
    SD=0; [ $w = sd ] && SD=1
    DSV4EXT_SD=$SD PYTHONPATH=/tmp/ab/$w timeout 90 python3 $P/ab16.py $w "1 8 16 64" 4096
  done
  for w in l18 sd; do
    SD=0; [ $w = sd ] && SD=1
    DSV4EXT_SD=$SD PYTHONPATH=/tmp/ab/$w timeout 90 python3 $P/ab16.py $w "1 8 16 64" 7168
  done
done 2>&1 | tee $OUT/ab.log
(cd tests/python && PYTHONPATH=/tmp/ab/ps timeout 240 python3 -m pytest -q -p no:cacheprovider -x test_mhc_pre.py test_hc_head.py test_mhc_fused_post_pre.py test_mhc_post_hc_head.py test_mhc_pre_delayed.py test_mhc_fused_post_pre_delayed.py -k cuda 2>&1 | tail -3) | tee $OUT/tests.log
