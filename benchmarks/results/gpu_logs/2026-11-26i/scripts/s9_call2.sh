#!/usr/bin/env bash
# Session 2026-11-26 (9), call 2: exp2 wheel (env-selected variants) against h9 (= 54838bf): ragged_pack rows kernels with
# kDepth rows in flight a warp (DSV4_RP 1-5) and a tapered schedule (DSV4_TAPER); top-k streams with two groups in flight
# (decode DSV4_DS 1-3, prefill DSV4_PF 1-2). Tests of each variant, then A/B timings.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in h9 exp2; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
{
for v in 1 2 3 4 5; do echo "== RP=$v"; DSV4_RP=$v PYTHONPATH=/tmp/ab/exp2 timeout 120 python3 -m pytest -q -x tests/python/test_ragged_pack.py -k cuda 2>&1 | tail -1; done
echo "== RP=3 TAPER=50"; DSV4_TAPER=50 DSV4_RP=3 PYTHONPATH=/tmp/ab/exp2 timeout 120 python3 -m pytest -q -x tests/python/test_ragged_pack.py -k cuda 2>&1 | tail -1
for v in 1 2 3; do echo "== DS=$v"; DSV4_DS=$v PYTHONPATH=/tmp/ab/exp2 timeout 200 python3 -m pytest -q -x tests/python/test_top_k_per_row_decode.py -k cuda 2>&1 | tail -1; done
for v in 1 2; do echo "== PF=$v"; DSV4_PF=$v PYTHONPATH=/tmp/ab/exp2 timeout 200 python3 -m pytest -q -x tests/python/test_top_k_per_row_prefill.py -k cuda 2>&1 | tail -1; done
} 2>&1 | tee $OUT/tests.log
for rep in 1 2 3; do
  PYTHONPATH=/tmp/ab/h9 python3 .carry/s9_ab.py h9 pack
  for v in 1 2 3 4 5; do DSV4_RP=$v PYTHONPATH=/tmp/ab/exp2 python3 .carry/s9_ab.py rp$v pack; done
  for t in 40 80; do DSV4_TAPER=$t DSV4_RP=3 PYTHONPATH=/tmp/ab/exp2 python3 .carry/s9_ab.py rp3t$t pack; done
done 2>&1 | tee $OUT/ab_pack.log
for rep in 1 2; do
  PYTHONPATH=/tmp/ab/h9 python3 .carry/ab_topk3.py h9 decode
  for v in 1 2 3; do DSV4_DS=$v PYTHONPATH=/tmp/ab/exp2 python3 .carry/ab_topk3.py ds$v decode; done
done 2>&1 | tee $OUT/ab_decode.log
for rep in 1 2; do
  PYTHONPATH=/tmp/ab/h9 python3 .carry/ab_topk3.py h9 prefill
  for v in 1 2; do DSV4_PF=$v PYTHONPATH=/tmp/ab/exp2 python3 .carry/ab_topk3.py pf$v prefill; done
done 2>&1 | tee $OUT/ab_prefill.log
