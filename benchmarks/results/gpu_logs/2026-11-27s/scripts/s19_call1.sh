#!/usr/bin/env bash
# Session 19, call 1: pm (the fused ops' post mixes loaded before the prefetched tile is copied into registers:
# the trace of call 8 put ~1 us between the tile's loads and its post) against l18: same bits of the fused ops at
# decode sizes, A/B, the fused ops' CUDA tests.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; S=benchmarks/results/gpu_logs/2026-11-27r/scripts
rm -rf /tmp/ab/l18; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/l18 .carry/wheels/*.whl
rm -rf /tmp/ab/pm; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/pm .carry/w/pm2/*.whl
export SB_OPS=mhc_fused_post_pre,mhc_fused_post_pre_delayed,mhc_post_hc_head SB_T=1,3,5,16,29,57,100,127
PYTHONPATH=/tmp/ab/l18 timeout 60 python3 $S/same_bits18.py l18 2>&1 | tail -1
PYTHONPATH=/tmp/ab/pm timeout 60 python3 $S/same_bits18.py pm l18 2>&1 | tail -1 | tee $OUT/same_bits.log
rm -f $OUT/bits_l18.pt
for rep in 1 2; do for d in 4096 7168; do for w in l18 pm; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $P/ab16.py $w "1 8 16 64" $d mhc_post_hc_head,mhc_fused_post_pre
done; done; done 2>&1 | tee $OUT/ab_pm.log
(cd tests/python && PYTHONPATH=/tmp/ab/pm timeout 100 python3 -m pytest -q -p no:cacheprovider test_mhc_fused_post_pre.py test_mhc_post_hc_head.py test_mhc_fused_post_pre_delayed.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
