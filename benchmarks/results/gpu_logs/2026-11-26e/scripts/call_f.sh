#!/usr/bin/env bash
# call F: which test failed in the final call (cur = .carry/wheels, the previous tests), then new2 (ring from 1024) tests and A/B.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/cur .carry/wheels/*.whl
for n in base new2; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$n .carry/w/$n/*.whl; done
echo "=== cur, previous tests"
PYTHONPATH=/tmp/ab/cur timeout 100 python3 -m pytest -q tests/python/test_zz_prev_delayed.py tests/python/test_mhc_pre.py -k cuda -rf --tb=short 2>&1 | grep -E "^FAILED|^E |passed|failed" | cut -c1-300 | head -20
echo "=== new2 tests"
PYTHONPATH=/tmp/ab/new2 timeout 150 python3 -m pytest -q tests/python/test_mhc_*.py tests/python/test_hc_head.py -k cuda -rf --tb=short 2>&1 | grep -E "^FAILED|^E |passed|failed" | cut -c1-300 | head -20
for rep in 1 2; do for n in base new2; do
  echo "--- $n rep $rep"
  PYTHONPATH=/tmp/ab/$n timeout 60 python3 benchmarks/bench_mhc.py --no-ref --hidden 4096 --ops mhc_pre mhc_pre_delayed --tokens 1024 4096 16384 --out $OUT/ab_$n.$rep > $OUT/ab_$n.$rep.log 2>&1
  grep -E "^\| (mhc|hc)" $OUT/ab_$n.$rep/mhc.md | awk -F'|' '{print $2,$3,$4,$5,$7}'
  PYTHONPATH=/tmp/ab/$n timeout 40 python3 .carry/bench_delayed.py 2.98e12 "1024 4096 16384"
done; done
