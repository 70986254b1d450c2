#!/usr/bin/env bash
# Session 2026-11-26 (10), call 7: bl (c481c99's kernels) against fin (0aa6940, .carry/wheels) at T = 512 .. 16384 (graph replay of
# 5 calls, so that host launch gaps do not count): does any prefill or mid-size path move with this session's changes?
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in bl:.carry/w/bl fin:.carry/wheels; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
for rep in 1 2; do for w in bl fin; do PYTHONPATH=/tmp/ab/$w python3 .carry/s10/s10_ab.py $w mid; done; done 2>&1 | tee $OUT/ab_mid.log
