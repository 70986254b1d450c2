#!/usr/bin/env bash
# Session 23, call 13 (run inline): bench_topk.py on the landed build (su = the working tree of call 12) ->
# results/topk (call 12's run printed its table but its files were over the device tool's count). Carry .carry/w/su.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
rm -rf /tmp/ab/su; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/su .carry/w/su/*.whl
PYTHONPATH=/tmp/ab/su timeout 200 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"
grep -E "prefill|ragged|1x65536|64x262144" $OUT/topk/topk.md | cut -d'|' -f2-6
