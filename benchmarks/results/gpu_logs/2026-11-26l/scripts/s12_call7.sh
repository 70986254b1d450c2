#!/usr/bin/env bash
# Session 2026-11-26 (12), call 7: ct64 (the fused ops composed from 64 tokens: kFusedComposeMinTokens = 64) against main
# (e5b7ec8 = .carry/wheels): kernel time at T = 64 .. 1023, D = 4096 and 7168, two rounds.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in main:.carry/wheels ct64:.carry/w/ct64; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
for rep in 1 2; do for w in main ct64; do PYTHONPATH=/tmp/ab/$w python3 .carry/s12/ab_compose.py $w "4096 7168" "64 128 192 256 384 512 768 1023"; done; done 2>&1 | tee $OUT/ab_compose.log
