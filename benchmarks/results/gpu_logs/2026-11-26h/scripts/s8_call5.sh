#!/usr/bin/env bash
# Session 2026-11-26 (8), call 5: knockouts (timing only, wrong indices): va = the clustered ordered_bases without its cluster barrier
# and remote reads; vb = the clustered picks without the CUB block scan. Decode anatomy and decode A/B against HEAD's decode (pf0).
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in pf0 va vb; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for r in 1 2; do for w in pf0 va vb; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 .carry/decode_anatomy.py $w; done; done 2>&1 | tee $OUT/anatomy.log
