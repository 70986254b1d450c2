#!/usr/bin/env bash
# Session 2026-11-26 (9), call 1: exp wheel (env-selected variants) against h9 (= 54838bf): ragged_pack rows kernels (DSV4_RP),
# warp-row groups for narrow rows (DSV4_WR), decode stream of 16 at 262144 (DSV4_DS); tests of each variant; A/B timings.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in h9 exp; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv | tee $OUT/gpu.txt
{
for v in 1 2 3 4; do echo "== RP=$v"; DSV4_RP=$v PYTHONPATH=/tmp/ab/exp timeout 120 python3 -m pytest -q -x tests/python/test_ragged_pack.py -k cuda 2>&1 | tail -2; done
for v in 1 2 3; do echo "== WR=$v"; DSV4_WR=$v PYTHONPATH=/tmp/ab/exp timeout 200 python3 -m pytest -q -x tests/python/test_top_k_per_row_prefill.py tests/python/test_top_k_per_row_decode.py -k cuda 2>&1 | tail -2; done
echo "== DS=1"; DSV4_DS=1 PYTHONPATH=/tmp/ab/exp timeout 200 python3 -m pytest -q -x tests/python/test_top_k_per_row_decode.py -k cuda 2>&1 | tail -2
} 2>&1 | tee $OUT/tests.log
for rep in 1 2 3; do
  PYTHONPATH=/tmp/ab/h9 python3 .carry/s9_ab.py h9 pack
  for v in 1 2 3 4; do DSV4_RP=$v PYTHONPATH=/tmp/ab/exp python3 .carry/s9_ab.py rp$v pack; done
done 2>&1 | tee $OUT/ab_pack.log
for rep in 1 2; do
  PYTHONPATH=/tmp/ab/h9 python3 .carry/s9_ab.py h9 narrow
  for v in 1 2 3; do DSV4_WR=$v PYTHONPATH=/tmp/ab/exp python3 .carry/s9_ab.py wr$v narrow; done
done 2>&1 | tee $OUT/ab_narrow.log
for rep in 1 2; do
  PYTHONPATH=/tmp/ab/h9 python3 .carry/s9_ab.py h9 decode
  DSV4_DS=1 PYTHONPATH=/tmp/ab/exp python3 .carry/s9_ab.py ds1 decode
done 2>&1 | tee $OUT/ab_decode.log
