#!/usr/bin/env bash
set -uo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/base .carry/wheels/*.whl; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/ring3 .carry/w/ring3/*.whl
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sector_hit_rate.pct
for n in base ring3; do for v in "norm carried" "nonorm carried" "nonorm identity"; do
  echo "=== $n $v"
  PYTHONPATH=/tmp/ab/$n timeout 60 ncu --kernel-name regex:tma --launch-skip 2 --launch-count 1 --metrics $M python3 .carry/prof_delayed.py $v 2>&1 | grep -E "dram__|gpu__time|lts__"
done; done
