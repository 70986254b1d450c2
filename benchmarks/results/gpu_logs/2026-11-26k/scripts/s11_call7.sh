#!/usr/bin/env bash
# Session 2026-11-26 (11), call 7: hs (hc_head's decode engine with two warps a stage: the squares and the collapse / the
# projection) against new (82c7605, scripts/build_wheel.sh): the same bits, decode A/B, hc_head's CUDA tests on hs.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in new:.carry/wheels hs:.carry/w/hs; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
PYTHONPATH=/tmp/ab/new python3 .carry/s11/same_bits.py new && PYTHONPATH=/tmp/ab/hs python3 .carry/s11/same_bits.py hs new 2>&1 | tee $OUT/same_bits.log
for rep in 1 2 3; do for w in new hs; do PYTHONPATH=/tmp/ab/$w python3 .carry/s10/s10_ab.py $w mhc; done; done 2>&1 | tee $OUT/ab_mhc.log | grep -E "hc_head  "
(cd tests/python && PYTHONPATH=/tmp/ab/hs timeout 100 python3 -m pytest -q -p no:cacheprovider test_hc_head.py -k cuda 2>&1 | tail -2) | tee $OUT/tests_hs.log
