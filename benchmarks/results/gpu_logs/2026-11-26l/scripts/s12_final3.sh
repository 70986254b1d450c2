#!/usr/bin/env bash
# Session 2026-11-26 (12), final call 3: the landed build: bench_mhc at D = 4096 and 7168 -> results/mhc.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
for d in 4096 7168; do
  timeout 250 python3 benchmarks/bench_mhc.py --no-compile --hidden $d --out $OUT/mhc_$d > $OUT/bench_mhc_$d.log 2>&1; echo "bench_mhc $d rc $?"
  grep -E "\| (512|4096|16384) \|" $OUT/mhc_$d/mhc.md | grep -E "post_hc_head|hc_head" | cut -d'|' -f2-8
done
tar czf $OUT/results_mhc.tgz -C $OUT mhc_4096 mhc_7168 && rm -rf $OUT/mhc_4096 $OUT/mhc_7168
