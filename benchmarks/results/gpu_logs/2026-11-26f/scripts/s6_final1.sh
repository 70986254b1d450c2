#!/usr/bin/env bash
# Session 2026-11-26 (6), final call 1 on the final top-k build (scripts/build_wheel.sh of HEAD): check, gtest,
# the top-k / ragged / vLLM-adapter CUDA tests, bench_topk of the session's start (base, fd3fe79) and of HEAD.
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
gunzip -f .carry/bin/test_cuda_launchers.gz && chmod +x .carry/bin/test_cuda_launchers
TAIL=3 timeout 200 scripts/gpu_check.sh info check gtest
PYTHONPATH=/tmp/dsv4ext-site timeout 200 python3 -m pytest -q tests/python/test_top_k_per_row_prefill.py tests/python/test_top_k_per_row_decode.py \
  tests/python/test_ragged_pack.py tests/python/test_vllm_adapter.py -k cuda -p no:cacheprovider > $OUT/pytest_topk_cuda.log 2>&1; echo "pytest rc $?"; tail -1 $OUT/pytest_topk_cuda.log
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/base .carry/w/base/*.whl
for n in base final; do
  P=/tmp/dsv4ext-site; [ $n = base ] && P=/tmp/ab/base
  PYTHONPATH=$P timeout 150 python3 benchmarks/bench_topk.py --out $OUT/topk_$n > $OUT/bench_topk_$n.log 2>&1; echo "bench_topk $n rc $?"
  grep -E "^\| (top|ragged)" $OUT/topk_$n/topk.md | cut -d"|" -f2-6,8,9 | head -30
done
