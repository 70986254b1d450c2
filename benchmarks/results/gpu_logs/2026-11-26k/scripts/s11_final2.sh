#!/usr/bin/env bash
# Session 2026-11-26 (11), final call 2: the landed build (scripts/build_wheel.sh: .carry/wheels, .carry/bin): check +
# every gtest, the mHC and model CUDA tests, memcheck / racecheck over race_mhc.py, bench_mhc at D = 4096 and 7168.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
gunzip -f .carry/bin/test_cuda_launchers.gz
TAIL=3 timeout 150 scripts/gpu_check.sh info check gtest > $OUT/gpu_check.log 2>&1; echo "gpu_check rc $?"
grep -E "passed|failed|PASSED|FAILED" $OUT/gpu_check.log | head -12
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
(cd tests/python && timeout 220 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_sinkhorn.py test_model.py test_model_v41.py -k cuda 2>&1 | tail -1) | tee $OUT/tests.log
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 1 python3 .carry/s10/race_mhc.py > $OUT/${tool}.log 2>&1; echo "$tool rc $?"; tail -1 $OUT/${tool}.log
done
for d in 4096 7168; do
  timeout 150 python3 benchmarks/bench_mhc.py --no-compile --hidden $d --out $OUT/mhc_$d > $OUT/bench_mhc_$d.log 2>&1; echo "bench_mhc $d rc $?"
  grep -E "\| (1|8|64|16384) \|" $OUT/mhc_$d/mhc.md | grep -E "hc_head|mhc_pre " | cut -d'|' -f2-8
done
tar czf $OUT/results.tgz -C $OUT mhc_4096 mhc_7168 && rm -rf $OUT/mhc_4096 $OUT/mhc_7168
