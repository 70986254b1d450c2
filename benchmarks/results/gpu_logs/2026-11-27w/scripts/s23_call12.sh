#!/usr/bin/env bash
# Session 23, call 12: su's validation (the working tree: so + su; s23_call10.sh with the su wheel and
# test_cuda_launchers built from this tree), then the landed build's benchmark (results/topk). Carry .carry/w/su and
# .carry/bin.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
bash benchmarks/results/gpu_logs/2026-11-27w/scripts/s23_call10.sh su
PYTHONPATH=/tmp/ab/su timeout 200 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"
grep -E "prefill|ragged|decode" $OUT/topk/topk.md | cut -d'|' -f2-6
