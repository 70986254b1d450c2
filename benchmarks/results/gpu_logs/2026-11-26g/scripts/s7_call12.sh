#!/usr/bin/env bash
# Session 2026-11-26 (7), call 12: decode stream depth: clusters 4 (d4) or 8 (d8), 1024-thread blocks 8 (d8u: clusters and unclustered) against HEAD (hd).
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
ROUNDS=2 bash .carry/s6_ab.sh decode hd d8 d4 d8u 2>&1 | tee $OUT/ab_decode.log
for rep in 1 2; do for w in hd d8 d8u; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 .carry/ab_decode_mid.py $w; done; done 2>&1 | tee $OUT/ab_decode_mid.log
