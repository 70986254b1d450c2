#!/usr/bin/env bash
# Session 20, call 4: ps0 (timing only: the D = 4096 decode engine reads fn's bf16 parts pre-split, 48 bytes a
# chunk, from a zero buffer; presplit_timing_ps0_patch.py) against l20 (the landed build), back to back and after a
# torch add, D = 4096, two rounds.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; S=benchmarks/results/gpu_logs/2026-11-27s/scripts
for w in l20 ps0; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for rep in 1 2; do for w in l20 ps0; do
  PYTHONPATH=/tmp/ab/$w timeout 90 python3 $P/ab16.py $w "1 8 16 64" 4096
  PYTHONPATH=/tmp/ab/$w timeout 90 python3 $S/ab_serial.py $w "1 16" 4096
done; done 2>&1 | tee $OUT/ab.log
