#!/usr/bin/env bash
# Session 2026-11-26 (10), call 3: n1 against e2 (no exit cluster barrier in the pipeline kernel), pf (e2 + fn prefetched
# into L1 at the decode tile's start), sk (pf + the one-lane Sinkhorn): decode A/B, mhc tests on sk, mhc_pre prefill.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in n1 e2 pf sk; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
(cd tests/python && PYTHONPATH=/tmp/ab/sk timeout 200 python3 -m pytest -q -x -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_sinkhorn.py -k cuda 2>&1 | tail -2) | tee $OUT/tests_sk.log
for rep in 1 2; do for w in n1 e2 pf sk; do PYTHONPATH=/tmp/ab/$w python3 .carry/s10/s10_ab.py $w mhc; done; done 2>&1 | tee $OUT/ab_mhc.log | grep -E "T=  1|T= 16" | grep -E "mhc_pre |hc_head|fused"
for w in n1 sk; do PYTHONPATH=/tmp/ab/$w python3 .carry/s10/s10_ab.py $w mhc7; done 2>&1 | tee $OUT/ab_mhc7.log | grep -E "T=  1"
for w in n1 sk; do PYTHONPATH=/tmp/ab/$w timeout 120 python3 benchmarks/bench_mhc.py --no-ref --ops mhc_pre --tokens 4096 16384 --hidden 4096 --out $OUT/prefill_$w > $OUT/prefill_$w.log 2>&1; grep -E "^\| mhc" $OUT/prefill_$w/mhc.md | sed "s/^/$w /"; done
