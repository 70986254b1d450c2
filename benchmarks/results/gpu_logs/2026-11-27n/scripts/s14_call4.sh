#!/usr/bin/env bash
# Session 14, call 4: racecheck of the held collapse with the norm (race14b.py), bench_mhc D = 4096 of the landed build.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
[ -d /tmp/ab/final ] || python3 -m pip install -q --no-index --no-deps --target /tmp/ab/final .carry/wheels/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/ab/final
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 1 python3 .carry/s14/race14b.py > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -2 $OUT/racecheck.log
timeout 260 python3 benchmarks/bench_mhc.py --no-compile --hidden 4096 --out $OUT/mhc_4096 > $OUT/bench_mhc_4096.log 2>&1; echo "bench_mhc 4096 rc $?"
tar czf $OUT/results_mhc.tgz -C $OUT mhc_4096 && rm -rf $OUT/mhc_4096
grep -E "post_hc_head|hc_head" $OUT/bench_mhc_4096.log | head -30
