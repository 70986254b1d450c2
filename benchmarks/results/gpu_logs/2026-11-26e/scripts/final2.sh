#!/usr/bin/env bash
# Session 2026-11-26 (5), final validation of the ring collapse (carry .carry/wheels, .carry/w/base, this script, dbg_ring.py, bench_delayed.py).
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
TAIL=3 timeout 60 scripts/gpu_check.sh info check
PYTHONPATH=/tmp/dsv4ext-site timeout 120 python3 -m pytest -q tests/python/test_mhc_*.py tests/python/test_hc_head.py -k cuda -rf > $OUT/pytest_mhc_cuda.log 2>&1; echo "pytest rc $?"; grep -E "^FAILED|passed|failed" $OUT/pytest_mhc_cuda.log | tail -5
echo "=== dbg_ring"; PYTHONPATH=/tmp/dsv4ext-site timeout 40 python3 .carry/dbg_ring.py 2>&1 | tee $OUT/dbg_ring.log | grep -c ok
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/base .carry/w/base/*.whl
for n in new base; do
  P=/tmp/dsv4ext-site; [ $n = base ] && P=/tmp/ab/base
  echo "--- $n"
  PYTHONPATH=$P timeout 50 python3 benchmarks/bench_mhc.py --no-ref --hidden 4096 --ops mhc_pre mhc_pre_delayed --tokens 1024 4096 16384 --out $OUT/ab_$n > $OUT/ab_$n.log 2>&1
  grep -E "^\| (mhc|hc)" $OUT/ab_$n/mhc.md | awk -F'|' '{print $2,$3,$4,$5,$7}'
  PYTHONPATH=$P timeout 30 python3 .carry/bench_delayed.py 2.98e12 "1024 4096 16384" 2>&1 | tee $OUT/bench_delayed_$n.log
done
cat > /tmp/mc.py <<'PY'
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
for t in (1024, 1025, 1500):
    a = list(mhc_args("mhc_pre_delayed", t, 4096, "cuda"))
    a[11] = None
    torch.ops.dsv4ext.mhc_pre_delayed(*a)
    a[9] = None
    torch.ops.dsv4ext.mhc_pre_delayed(*a)
torch.cuda.synchronize(); print("ring collapse ok")
PY
PYTHONPATH=/tmp/dsv4ext-site timeout 50 compute-sanitizer --tool memcheck --error-exitcode 1 python3 /tmp/mc.py > $OUT/memcheck_ring.log 2>&1; echo "memcheck ring rc $?"; tail -2 $OUT/memcheck_ring.log
