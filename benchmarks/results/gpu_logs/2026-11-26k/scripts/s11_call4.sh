#!/usr/bin/env bash
# Session 2026-11-26 (11), call 4: dk2 (the decode kernel with the owner's partials loaded in one round trip, parallel
# rank sums, a relaxed phase read) against base (a84d206): decode tests, A/B; dk2t (+ scripts/decode_trace_patch.py): stamps.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in base:.carry/wheels dk2:.carry/w/dk2 dk2t:.carry/w/dk2t; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
(cd tests/python && PYTHONPATH=/tmp/ab/dk2 timeout 200 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_hc_head.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_dk2.log
for rep in 1 2; do for w in base dk2; do PYTHONPATH=/tmp/ab/$w python3 .carry/s10/s10_ab.py $w mhc; done; done 2>&1 | tee $OUT/ab_mhc.log | grep -E "T=  1|T= 16" | grep -E "pre  |delayed|hc_head  "
PYTHONPATH=/tmp/ab/dk2t timeout 60 python3 .carry/s11/decode_trace.py > $OUT/trace.log 2>&1; grep -B4 -- "----" $OUT/trace.log | head -60
