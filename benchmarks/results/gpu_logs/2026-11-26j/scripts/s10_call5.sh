#!/usr/bin/env bash
# Session 2026-11-26 (10), call 5: finer trace (tr2 = 0aa6940 + trace_patch2.py); decode A/B of fin (0aa6940, .carry/wheels),
# ec (the decode engine's collapse loads issued early for every op), ow (ec + the owners' 16 rank partials loaded at once).
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in tr2:.carry/w/tr2 fin:.carry/wheels ec:.carry/w/ec ow:.carry/w/ow; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
PYTHONPATH=/tmp/ab/tr2 python3 .carry/s10/trace.py > $OUT/trace2.log 2>&1
grep -B8 "== " $OUT/trace2.log | grep -E "TRACE|==" | grep -v "^--"
(cd tests/python && PYTHONPATH=/tmp/ab/ow timeout 150 python3 -m pytest -q -x -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_hc_head.py test_mhc_post_hc_head.py -k "cuda and not compile" 2>&1 | tail -1) | tee $OUT/tests_ow.log
for rep in 1 2; do for w in fin ec ow; do PYTHONPATH=/tmp/ab/$w python3 .carry/s10/s10_ab.py $w mhc; done; done 2>&1 | tee $OUT/ab_mhc.log | grep -E "T=  1|T= 16"
