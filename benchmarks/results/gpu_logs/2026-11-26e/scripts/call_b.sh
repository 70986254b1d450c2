#!/usr/bin/env bash
# Session 2026-11-26 (5), call B: the batch-invariance failure (base, ring3), ring3 (L2 hints on the rescale) against base and ring2.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/base .carry/wheels/*.whl
for n in ring2 ring3; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$n .carry/w/$n/*.whl; done
for n in base ring3; do
  echo "=== kernels test $n"
  PYTHONPATH=/tmp/ab/$n timeout 120 python3 -m pytest -q tests/python/test_mhc_pre.py -k kernels --tb=line 2>&1 | grep -E "Error|passed|failed" | cut -c1-400 | head -8
done
for rep in 1 2; do
  for n in base ring2 ring3; do
    echo "--- $n rep $rep"
    PYTHONPATH=/tmp/ab/$n timeout 120 python3 .carry/bench_delayed.py
  done
done
echo "=== ncu ring3 mhc_pre_delayed 16384"
PYTHONPATH=/tmp/ab/ring3 timeout 150 ncu --kernel-name regex:tma --launch-skip 2 --launch-count 1 --section SpeedOfLight \
  --section MemoryWorkloadAnalysis --section WarpStateStats python3 benchmarks/prof_mhc.py mhc_pre_delayed 16384 4096 > $OUT/ncu_ring3_delayed.txt 2>&1
grep -E "Duration|DRAM Throughput|L2 Hit|Warp Cycles Per Issued" $OUT/ncu_ring3_delayed.txt | head -12
