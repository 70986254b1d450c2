#!/usr/bin/env bash
# Session 2026-11-26 (10), final call 3: the build of 0aa6940 (.carry/wheels): racecheck over race_mhc.py (D = 4096, T = 1, 16, 200,
# the norm on), results/mhc (bench_mhc, eager reference, no torch.compile).
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 python3 .carry/s10/race_mhc.py > $OUT/racecheck_mhc.log 2>&1; echo "racecheck rc $?"; tail -2 $OUT/racecheck_mhc.log
for d in 4096 7168; do
  timeout 220 python3 benchmarks/bench_mhc.py --no-compile --hidden $d --out $OUT/mhc_$d > $OUT/bench_mhc_$d.log 2>&1; echo "bench_mhc $d rc $?"
  grep -E "'T': (1|16|64|16384)," $OUT/bench_mhc_$d.log | cut -c1-160
done
tar czf $OUT/results.tgz -C $OUT mhc_4096 mhc_7168 && rm -rf $OUT/mhc_4096 $OUT/mhc_7168
