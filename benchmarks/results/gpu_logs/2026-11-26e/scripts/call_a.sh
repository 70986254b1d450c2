#!/usr/bin/env bash
# Session 2026-11-26 (5), call A: the ring collapse (ring2) against main (base), and the no-suspend-hint waits (nohint).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/base .carry/wheels/*.whl
for n in ring2 nohint; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$n .carry/w/$n/*.whl; done
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "=== pytest ring2"
PYTHONPATH=/tmp/ab/ring2 timeout 200 python3 -m pytest -q -x tests/python/test_mhc_pre_delayed.py -k cuda 2>&1 | tail -4
PYTHONPATH=/tmp/ab/ring2 timeout 120 python3 -m pytest -q -x tests/python/test_mhc_pre.py -k kernels 2>&1 | tail -4
B="python3 benchmarks/bench_mhc.py --no-ref --hidden 4096"
for rep in 1 2; do
  for n in base ring2; do
    echo "--- $n rep $rep"
    PYTHONPATH=/tmp/ab/$n timeout 120 $B --ops mhc_pre_delayed --tokens 16 128 256 512 1024 4096 16384 --out $OUT/d_$n.$rep > $OUT/d_$n.$rep.log 2>&1
    grep -E "^\| (mhc|hc)" $OUT/d_$n.$rep/*.md | awk -F'|' '{print $2,$3,$4,$5,$7}'
  done
done
for rep in 1 2; do
  for n in base nohint; do
    echo "--- $n rep $rep"
    PYTHONPATH=/tmp/ab/$n timeout 120 $B --ops mhc_pre --tokens 1024 4096 16384 --out $OUT/p_$n.$rep > $OUT/p_$n.$rep.log 2>&1
    grep -E "^\| (mhc|hc)" $OUT/p_$n.$rep/*.md | awk -F'|' '{print $2,$3,$4,$5,$7}'
  done
done
echo "=== ncu ring2 mhc_pre_delayed 16384"
PYTHONPATH=/tmp/ab/ring2 timeout 150 ncu --kernel-name regex:tma --launch-skip 2 --launch-count 1 --section SpeedOfLight \
  --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis python3 benchmarks/prof_mhc.py mhc_pre_delayed 16384 4096 > $OUT/ncu_ring2_delayed.txt 2>&1
grep -E "Duration|DRAM Throughput|Memory Throughput|L2 Hit|Achieved Occupancy|Warp Cycles Per Issued" $OUT/ncu_ring2_delayed.txt | head -12
echo "=== memcheck ring2 delayed"
cat > /tmp/mc.py <<'PY'
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
for t in (128, 129, 901, 1100):
    a = list(mhc_args("mhc_pre_delayed", t, 4096, "cuda"))
    torch.ops.dsv4ext.mhc_pre_delayed(*a)
    a[9] = None; a[11] = None
    torch.ops.dsv4ext.mhc_pre_delayed(*a)
torch.cuda.synchronize(); print("ok")
PY
PYTHONPATH=/tmp/ab/ring2 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 python3 /tmp/mc.py 2>&1 | tail -3
