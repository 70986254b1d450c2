#!/usr/bin/env bash
# Session 2026-11-26 (9), call 3: exp3 wheel against h9 (= 54838bf): ragged_pack rows kernels with prefix batches (DSV4_RP 1-5)
# at four row counts; decode cluster policy (one wave of clusters always; DSV4_GMAX / DSV4_SLICE) and the pipelined
# decode stream for slices >= 16384 (DSV4_DS=4), rows 1-64 at widths 65536 and 262144. Tests of each variant first.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in h9 exp3; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
{
for v in 1 2 3 4 5; do echo "== RP=$v"; DSV4_RP=$v PYTHONPATH=/tmp/ab/exp3 timeout 120 python3 -m pytest -q -x tests/python/test_ragged_pack.py -k cuda 2>&1 | tail -1; done
echo "== P (GMAX=4 SLICE=32768) DS=4"; DSV4_GMAX=4 DSV4_SLICE=32768 DSV4_DS=4 PYTHONPATH=/tmp/ab/exp3 timeout 200 python3 -m pytest -q -x tests/python/test_top_k_per_row_decode.py -k cuda 2>&1 | tail -1
echo "== default exp3"; PYTHONPATH=/tmp/ab/exp3 timeout 200 python3 -m pytest -q -x tests/python/test_top_k_per_row_decode.py -k cuda 2>&1 | tail -1
} 2>&1 | tee $OUT/tests.log
for rep in 1 2 3; do
  PYTHONPATH=/tmp/ab/h9 python3 .carry/s9_ab.py h9 pack4
  for v in 1 2 3 4 5; do DSV4_RP=$v PYTHONPATH=/tmp/ab/exp3 python3 .carry/s9_ab.py rp$v pack4; done
done 2>&1 | tee $OUT/ab_pack.log
for rep in 1 2 3; do
  PYTHONPATH=/tmp/ab/h9 python3 .carry/s9_ab.py h9 many
  PYTHONPATH=/tmp/ab/exp3 python3 .carry/s9_ab.py fit many
  DSV4_GMAX=4 DSV4_SLICE=32768 PYTHONPATH=/tmp/ab/exp3 python3 .carry/s9_ab.py P many
  DSV4_GMAX=4 DSV4_SLICE=32768 DSV4_DS=4 PYTHONPATH=/tmp/ab/exp3 python3 .carry/s9_ab.py Pds4 many
done 2>&1 | tee $OUT/ab_many.log
