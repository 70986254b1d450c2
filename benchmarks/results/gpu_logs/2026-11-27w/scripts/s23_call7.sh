#!/usr/bin/env bash
# Session 23, call 7: the landed build (a3 = 550f396's kernels): bench_topk (results/topk).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
rm -rf /tmp/ab/a3; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/a3 .carry/w/a3/*.whl
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/a3 timeout 280 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"
grep -E "prefill|ragged|decode" $OUT/topk/topk.md | cut -d'|' -f2-6
