#!/usr/bin/env bash
# Session 2026-11-26 (10), final call 4: the build of 0aa6940 (.carry/wheels) with this tree's benchmarks (kernel time from
# CUDA-graph replays at every size, call_us = one eager call): results/topk and results/mhc.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
timeout 200 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"; grep -E "prefill|ragged" $OUT/topk/topk.md
for d in 4096 7168; do
  timeout 190 python3 benchmarks/bench_mhc.py --no-compile --hidden $d --out $OUT/mhc_$d > $OUT/bench_mhc_$d.log 2>&1; echo "bench_mhc $d rc $?"
  grep -E "\| (1|16|4096|16384|65536) \|" $OUT/mhc_$d/mhc.md | cut -d'|' -f2-8
done
tar czf $OUT/results.tgz -C $OUT topk mhc_4096 mhc_7168 && rm -rf $OUT/topk $OUT/mhc_4096 $OUT/mhc_7168
