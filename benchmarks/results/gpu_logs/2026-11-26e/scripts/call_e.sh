#!/usr/bin/env bash
# call E: ring5 (ring mode: residual TMA evict-normal) against ring4 and main.
set -uo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/base .carry/wheels/*.whl
for n in ring4 ring5; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$n .carry/w/$n/*.whl; done
for rep in 1 2; do for n in base ring4 ring5; do
  echo "--- $n rep $rep"; PYTHONPATH=/tmp/ab/$n timeout 120 python3 .carry/bench_delayed.py
done; done
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sector_hit_rate.pct
echo "=== ring5 norm carried"
PYTHONPATH=/tmp/ab/ring5 timeout 60 ncu --kernel-name regex:tma --launch-skip 2 --launch-count 1 --metrics $M python3 .carry/prof_delayed.py norm carried 2>&1 | grep -E "dram__|gpu__time|lts__"
