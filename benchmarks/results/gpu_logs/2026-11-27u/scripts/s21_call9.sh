#!/usr/bin/env bash
# Session 21, call 9: the landed build l21d (rows of 2049-4096 columns on four warps of 32 keys for few rows as well):
# check + every gtest, the top-k / ragged_pack CUDA tests, memcheck / racecheck over race21_topk.py, ab_mg.py and
# ab_wg.py (the landed dispatch), bench_topk (results/topk).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
U=benchmarks/results/gpu_logs/2026-11-27u/scripts
rm -rf /tmp/ab/l21d; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/l21d .carry/wheels/*.whl
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
gunzip -f .carry/bin/test_cuda_launchers.gz
TAIL=3 timeout 150 scripts/gpu_check.sh info check gtest > $OUT/gpu_check.log 2>&1; echo "gpu_check rc $?"
grep -E "passed|failed|PASSED|FAILED|exit" $OUT/gpu_check.log | head -14
(cd tests/python && PYTHONPATH=/tmp/ab/l21d timeout 200 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py test_ragged_pack.py -k cuda 2>&1 | tail -1) | tee $OUT/tests_topk.log
for tool in memcheck racecheck; do
  PYTHONPATH=/tmp/ab/l21d timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 python3 $U/race21_topk.py > $OUT/${tool}.log 2>&1; echo "$tool rc $?"; tail -1 $OUT/${tool}.log
done
PYTHONPATH=/tmp/ab/l21d timeout 60 python3 $U/ab_mg.py l21d 2>&1 | tee $OUT/ab_mg_l21d.log
PYTHONPATH=/tmp/ab/l21d timeout 150 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"; grep -E "prefill|ragged|1x65536|64x262144" $OUT/topk/topk.md | cut -d'|' -f2-6
cd $OUT && tar czf s21c9.tgz *.log && rm -f memcheck.log racecheck.log
