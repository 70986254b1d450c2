#!/usr/bin/env bash
# Session 21, call 7: the landed build l21c: racecheck over race21_topk.py (the few-row groups; call 6's run with a
# 3001-row case ran past its limit), bench_topk (results/topk) and bench_mhc --no-compile (results/mhc).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
U=benchmarks/results/gpu_logs/2026-11-27u/scripts
rm -rf /tmp/ab/l21c; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/l21c .carry/wheels/*.whl
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/l21c timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 python3 $U/race21_topk.py > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -1 $OUT/racecheck.log
PYTHONPATH=/tmp/ab/l21c timeout 220 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"; grep -E "prefill|ragged|1x65536|64x262144" $OUT/topk/topk.md | cut -d'|' -f2-6
PYTHONPATH=/tmp/ab/l21c timeout 230 python3 benchmarks/bench_mhc.py --no-compile --out $OUT/mhc > $OUT/bench_mhc.log 2>&1; echo "bench_mhc rc $?"
tail -3 $OUT/bench_mhc.log
