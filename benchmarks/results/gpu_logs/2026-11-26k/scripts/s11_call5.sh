#!/usr/bin/env bash
# Session 2026-11-26 (11), call 5: the one-tile decode CTA (16 warps: 16 workers, stage 0's second warp owns the token;
# 128 registers) with fn loaded kAheadA / kAheadB streams ahead: ah00 (0/0), ah21, ah42 against base (a84d206):
# decode A/B; the mHC pre tests on ah42.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in base:.carry/wheels ah00:.carry/w/ah00 ah21:.carry/w/ah21 ah42:.carry/w/ah42; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
(cd tests/python && PYTHONPATH=/tmp/ab/ah42 timeout 150 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_ah42.log
for rep in 1 2; do for w in base ah00 ah21 ah42; do PYTHONPATH=/tmp/ab/$w python3 .carry/s10/s10_ab.py $w mhc; done; done 2>&1 | tee $OUT/ab_mhc.log | grep -E "T=  1|T= 16" | grep -E "pre  |delayed"
