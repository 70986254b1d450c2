#!/usr/bin/env bash
# Session 2026-11-27 (13), final call: the landed build (scripts/build_wheel.sh): hc_head's held collapse and the fused seam
# (post applied in the ring) on the TMA kernel from 2560 tokens, PDL. Smoke test of the seam first (stop on failure), check +
# every gtest, the mHC / model CUDA tests, memcheck / racecheck (race13b.py), A/B against base (4f6b551), bench_mhc D = 4096.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in final:.carry/wheels base:.carry/w/base; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
PYTHONPATH=/tmp/ab/final timeout 90 python3 .carry/s13/smoke13.py 2>&1 | tee $OUT/smoke.log; rc=${PIPESTATUS[0]}
echo "smoke rc $rc"; [ $rc -eq 0 ] || exit 1
gunzip -f .carry/bin/test_cuda_launchers.gz
TAIL=3 timeout 170 scripts/gpu_check.sh info check gtest > $OUT/gpu_check.log 2>&1; echo "gpu_check rc $?"
grep -E "passed|failed|PASSED|FAILED" $OUT/gpu_check.log | head -12
(cd tests/python && PYTHONPATH=/tmp/ab/final timeout 240 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_mhc_post.py test_model.py test_model_v41.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
for tool in memcheck racecheck; do
  PYTHONPATH=/tmp/ab/final timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 python3 .carry/s13/race13b.py > $OUT/${tool}.log 2>&1; echo "$tool rc $?"; tail -1 $OUT/${tool}.log
done
for w in base final; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 .carry/s13/ab_head13.py $w "1024 2048 2560 4096 16384 65536"; done 2>&1 | tee $OUT/ab_head.log
export PYTHONPATH=/tmp/ab/final
timeout 200 python3 benchmarks/bench_mhc.py --no-compile --hidden 4096 --out $OUT/mhc_4096 > $OUT/bench_mhc_4096.log 2>&1; echo "bench_mhc 4096 rc $?"
tar czf $OUT/results_mhc.tgz -C $OUT mhc_4096 && rm -rf $OUT/mhc_4096
