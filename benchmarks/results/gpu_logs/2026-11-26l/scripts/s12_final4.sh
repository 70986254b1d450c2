#!/usr/bin/env bash
# Session 2026-11-26 (12), final call 4: the landed build (fused ops composed from 128 tokens, the fused head mode back to one
# CTA an SM; scripts/build_wheel.sh): check + every gtest, the mHC / Sinkhorn / model CUDA tests, memcheck / racecheck over
# race_s12.py, A/B against wr3 (32af9f1, composed from 1024), bench_mhc D = 4096 and 7168.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
gunzip -f .carry/bin/test_cuda_launchers.gz
TAIL=3 timeout 170 scripts/gpu_check.sh info check gtest > $OUT/gpu_check.log 2>&1; echo "gpu_check rc $?"
grep -E "passed|failed|PASSED|FAILED" $OUT/gpu_check.log | head -12
for w in final:.carry/wheels wr3:.carry/w/wr3; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
(cd tests/python && PYTHONPATH=/tmp/ab/final timeout 260 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_sinkhorn.py test_model.py test_model_v41.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
for tool in memcheck racecheck; do
  PYTHONPATH=/tmp/ab/final timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 python3 .carry/s12/race_s12.py > $OUT/${tool}.log 2>&1; echo "$tool rc $?"; tail -1 $OUT/${tool}.log
done
for w in wr3 final; do PYTHONPATH=/tmp/ab/$w python3 .carry/s12/ab_compose.py $w "4096" "64 127 128 512"; done 2>&1 | tee $OUT/ab_compose.log
export PYTHONPATH=/tmp/ab/final
for d in 4096 7168; do
  timeout 250 python3 benchmarks/bench_mhc.py --no-compile --hidden $d --out $OUT/mhc_$d > $OUT/bench_mhc_$d.log 2>&1; echo "bench_mhc $d rc $?"
done
tar czf $OUT/results_mhc.tgz -C $OUT mhc_4096 mhc_7168 && rm -rf $OUT/mhc_4096 $OUT/mhc_7168
