#!/usr/bin/env bash
# Prepared in session 32: the checks before landing one of next_s33.sh's variants (argument: its name; default all):
# the pytest files of every op the patches touch, then racecheck and memcheck of sanitize_sw.py (the TMA ops at D =
# 4096, T = 1600, and the pipeline at T = 29). Carry [".carry/w/m32", ".carry/so.tar.xz"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
V=${1:-all}
[ -d /tmp/ab/$V ] || BASE=m32 bash benchmarks/results/gpu_logs/2026-11-28zzz/scripts/s28_setup.sh $V
(cd tests/python && PYTHONPATH=/tmp/ab/$V timeout 360 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py \
  test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_mhc_post_hc_head.py \
  test_hc_head.py test_mhc_post.py 2>&1 | tail -n 3) | tee $OUT/tests_$V.log
for tool in racecheck memcheck; do
  PYTHONPATH=/tmp/ab/$V timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 python3 \
    benchmarks/results/gpu_logs/2026-12-07b/scripts/sanitize_sw.py > $OUT/san_${tool}_$V.log 2>&1; echo "$tool $V rc $?"
  tail -n 2 $OUT/san_${tool}_$V.log
done
