#!/usr/bin/env bash
# Session 20, call 1: the two variants prepared in session 19 (cr, tb) against the landed build (l18).
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
bash benchmarks/results/gpu_logs/2026-11-27s/scripts/next_call.sh l18 cr tb > $OUT/call1.log 2>&1
tail -c 12000 $OUT/call1.log
cd $OUT && tar czf s20c1.tgz *.log && rm -f *.log.gz
