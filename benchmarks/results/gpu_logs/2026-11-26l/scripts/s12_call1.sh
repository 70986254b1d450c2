#!/usr/bin/env bash
# Session 2026-11-26 (12), call 1: cluster residency of the H100 (cq); the composed mhc_post_hc_head (new = working tree,
# scripts/build_wheel.sh) against base (173ff41): its CUDA tests, the compose test, hc_head's; A/B prefill, two rounds.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
.carry/s12/cq | tee $OUT/clusters.txt
for w in new:.carry/wheels base:.carry/w/base12; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
(cd tests/python && PYTHONPATH=/tmp/ab/new timeout 240 python3 -m pytest -q -p no:cacheprovider test_mhc_post_hc_head.py test_hc_head.py -k cuda 2>&1 | tail -3; PYTHONPATH=/tmp/ab/new timeout 200 python3 -m pytest -q -p no:cacheprovider test_mhc_fused_post_pre.py -k "compose or engines" 2>&1 | tail -3) | tee $OUT/tests_new.log
for rep in 1 2; do for w in base new; do PYTHONPATH=/tmp/ab/$w python3 .carry/s12/ab_head.py $w "4096" "512 1024 2048 4096 16384 65536"; done; done 2>&1 | tee $OUT/ab_head4096.log
for w in base new; do PYTHONPATH=/tmp/ab/$w python3 .carry/s12/ab_head.py $w "7168" "1024 4096 16384"; done 2>&1 | tee $OUT/ab_head7168.log
