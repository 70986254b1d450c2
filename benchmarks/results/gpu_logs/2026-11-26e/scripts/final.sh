#!/usr/bin/env bash
# Session 2026-11-26 (5), final validation in one call (carry .carry/bin, .carry/wheels, .carry/w/base, this script):
# check, gtest, bench (this build and main's wheel side by side), the mHC/model pytest, memcheck.
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
gunzip -f .carry/bin/test_cuda_launchers.gz && chmod +x .carry/bin/test_*
TAIL=3 timeout 120 scripts/gpu_check.sh info check gtest
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/base .carry/w/base/*.whl
B="python3 benchmarks/bench_mhc.py --ops mhc_pre mhc_pre_delayed mhc_fused_post_pre hc_head mhc_post_hc_head --tokens 1 16 64 1024 4096 16384 --hidden 4096"
PYTHONPATH=/tmp/dsv4ext-site timeout 150 $B --no-compile --out $OUT/mhc > $OUT/bench_mhc.log 2>&1; echo "bench rc $?"
PYTHONPATH=/tmp/ab/base timeout 80 $B --no-ref --out $OUT/mhc_base > $OUT/bench_mhc_base.log 2>&1; echo "bench base rc $?"
paste -d'|' <(grep -E "^\| (mhc|hc)" $OUT/mhc/mhc.md | awk -F'|' '{print $2,$3,$4,$5,$7}') <(grep -E "^\| (mhc|hc)" $OUT/mhc_base/mhc.md | awk -F'|' '{print $5}')
for n in new base; do
  P=/tmp/dsv4ext-site; [ $n = base ] && P=/tmp/ab/base
  echo "--- bench_delayed $n"; PYTHONPATH=$P timeout 40 python3 .carry/bench_delayed.py 2.98e12 "128 512 1024 4096 16384" 2>&1 | tee -a $OUT/bench_delayed_$n.log
done
PYTHONPATH=/tmp/dsv4ext-site timeout 150 python3 -m pytest -q tests/python/test_mhc_*.py tests/python/test_hc_head.py tests/python/test_model*.py -k "cuda or model" > $OUT/pytest_mhc.log 2>&1; echo "pytest rc $?"; tail -2 $OUT/pytest_mhc.log
cat > /tmp/mc.py <<'PY'
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
for t in (128, 129, 901):
    a = list(mhc_args("mhc_pre_delayed", t, 4096, "cuda"))
    a[11] = None
    torch.ops.dsv4ext.mhc_pre_delayed(*a)
    a[9] = None
    torch.ops.dsv4ext.mhc_pre_delayed(*a)
torch.cuda.synchronize(); print("ring collapse ok")
PY
PYTHONPATH=/tmp/dsv4ext-site timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 python3 scripts/sanitize_ops.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -2 $OUT/memcheck.log
PYTHONPATH=/tmp/dsv4ext-site timeout 50 compute-sanitizer --tool memcheck --error-exitcode 1 python3 /tmp/mc.py > $OUT/memcheck_ring.log 2>&1; echo "memcheck ring rc $?"; tail -2 $OUT/memcheck_ring.log
