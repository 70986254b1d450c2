#!/usr/bin/env bash
# Session 28, call 5. results/topk from the landed build (f4f = main after session 28: wc in the warp-row top-k), then
# (time permitting) bench_mhc at D = 7168 for the four TMA ops (f4 + the release fence). Copy $OUT/topk/topk.{md,json,png}
# into benchmarks/results/ after the call.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zzz/scripts
bash $S/s28_setup.sh f4f
export PYTHONPATH=/tmp/ab/f4f
timeout 300 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"; tail -3 $OUT/bench_topk.log
timeout 200 python3 benchmarks/bench_mhc.py --no-compile --hidden 7168 --tokens 1 64 4096 16384 65536 --ops mhc_pre mhc_pre_delayed hc_head mhc_post_hc_head --out $OUT/mhc7168 > $OUT/bench_mhc7168.log 2>&1; echo "bench_mhc rc $?"; tail -3 $OUT/bench_mhc7168.log
