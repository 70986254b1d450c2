#!/usr/bin/env bash
# Session 2026-11-26 (6), call 1: validate e631a5e (ring collapse, ring_collapse8 + load_row_chunk) on the GPU.
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
TAIL=3 timeout 150 scripts/gpu_check.sh info check gtest
PYTHONPATH=/tmp/dsv4ext-site timeout 150 python3 -m pytest -q tests/python/test_mhc_*.py tests/python/test_hc_head.py -k cuda -rf -p no:cacheprovider > $OUT/pytest_mhc_cuda.log 2>&1; echo "pytest rc $?"; grep -E "^FAILED|passed|failed" $OUT/pytest_mhc_cuda.log | tail -5
echo "=== dbg_ring"; PYTHONPATH=/tmp/dsv4ext-site timeout 40 python3 .carry/dbg_ring.py 2>&1 | tee $OUT/dbg_ring.log | grep -c ok
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
PYTHONPATH=/tmp/dsv4ext-site timeout 60 compute-sanitizer --tool memcheck --error-exitcode 1 python3 /tmp/mc.py > $OUT/memcheck_ring.log 2>&1; echo "memcheck ring rc $?"; tail -2 $OUT/memcheck_ring.log
PYTHONPATH=/tmp/dsv4ext-site timeout 100 python3 benchmarks/bench_mhc.py --no-ref --hidden 4096 --ops mhc_pre mhc_pre_delayed mhc_fused_post_pre hc_head mhc_post_hc_head --tokens 1 16 64 4096 16384 --out $OUT/bench > $OUT/bench.log 2>&1; echo "bench rc $?"
grep -E "^\| (mhc|hc)" $OUT/bench/mhc.md | awk -F'|' '{print $2,$3,$4,$5,$7}'
