#!/usr/bin/env bash
# Session 2026-11-26 (9), final call 2: the same build (.carry/wheels): memcheck / racecheck / synccheck over
# .carry/race_cluster.py (now with long slices and 16 / 32 rows), bench_topk (results/topk), decode A/B against h9 (54838bf).
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/fin .carry/wheels/*.whl
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/h9 .carry/w/h9/*.whl
export PYTHONUNBUFFERED=1
export PYTHONPATH=/tmp/ab/fin
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 python3 .carry/race_cluster.py > $OUT/${tool}_cluster.log 2>&1; echo "$tool cluster rc $?"; tail -2 $OUT/${tool}_cluster.log
done
timeout 120 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"; tail -30 $OUT/bench_topk.log
unset PYTHONPATH
for rep in 1 2; do
  PYTHONPATH=/tmp/ab/h9 python3 .carry/s9_ab.py h9 many
  PYTHONPATH=/tmp/ab/fin python3 .carry/s9_ab.py fin many
done 2>&1 | tee $OUT/ab_many.log | sed 's/ det .*ok=True//'
