#!/usr/bin/env bash
# Session 2026-11-26 (5), last call: the ring collapse with its own written-out rounding, collapse8 as on main.
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/dsv4ext-site .carry/wheels/*.whl
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/base .carry/w/base/*.whl
export PYTHONPATH=/tmp/dsv4ext-site
timeout 70 python3 -m pytest -q tests/python/test_mhc_pre.py tests/python/test_mhc_pre_delayed.py -k cuda -rf > $OUT/pytest.log 2>&1; echo "pytest rc $?"; grep -E "^FAILED|passed|failed" $OUT/pytest.log | tail -4
echo "=== dbg_ring"; timeout 30 python3 .carry/dbg_ring.py 2>&1 | tee $OUT/dbg_ring.log | grep -c ok
for n in new base; do
  P=/tmp/dsv4ext-site; [ $n = base ] && P=/tmp/ab/base
  echo "--- $n"
  PYTHONPATH=$P timeout 30 python3 benchmarks/bench_mhc.py --no-ref --hidden 4096 --ops mhc_pre mhc_pre_delayed --tokens 4096 16384 --out $OUT/ab_$n > $OUT/ab_$n.log 2>&1
  grep -E "^\| (mhc|hc)" $OUT/ab_$n/mhc.md | awk -F'|' '{print $2,$3,$4,$5,$7}'
  PYTHONPATH=$P timeout 20 python3 .carry/bench_delayed.py 2.98e12 "16384" 2>&1 | tee $OUT/bench_delayed_$n.log
done
