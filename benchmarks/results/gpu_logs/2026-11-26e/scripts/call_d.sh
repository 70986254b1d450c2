#!/usr/bin/env bash
# Session 2026-11-26 (5), call D: ring4 (evict-last TMA policy, collapse8 rounding written out) against main.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/base .carry/wheels/*.whl
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/ring4 .carry/w/ring4/*.whl
nvidia-smi --query-gpu=name --format=csv,noheader
for rep in 1 2; do for n in base ring4; do
  echo "--- $n rep $rep"; PYTHONPATH=/tmp/ab/$n timeout 120 python3 .carry/bench_delayed.py
done; done
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sector_hit_rate.pct
for v in "norm carried" "nonorm carried"; do
  echo "=== ring4 $v"
  PYTHONPATH=/tmp/ab/ring4 timeout 60 ncu --kernel-name regex:tma --launch-skip 2 --launch-count 1 --metrics $M python3 .carry/prof_delayed.py $v 2>&1 | grep -E "dram__|gpu__time|lts__"
done
for n in base ring4; do
  echo "--- bench_mhc $n"
  PYTHONPATH=/tmp/ab/$n timeout 120 python3 benchmarks/bench_mhc.py --no-ref --hidden 4096 --ops mhc_pre_delayed --tokens 128 256 512 1024 2048 --out $OUT/d_$n > $OUT/d_$n.log 2>&1
  grep -E "^\| (mhc|hc)" $OUT/d_$n/*.md | awk -F'|' '{print $2,$3,$4,$5,$7}'
done
echo "=== pytest ring4"
PYTHONPATH=/tmp/ab/ring4 timeout 300 python3 -m pytest -q tests/python/test_mhc_*.py tests/python/test_hc_head.py -k cuda 2>&1 | tail -4
