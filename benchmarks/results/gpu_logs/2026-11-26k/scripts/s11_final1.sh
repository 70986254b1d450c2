#!/usr/bin/env bash
# Session 2026-11-26 (11), final call: the build of a84d206 (= this tree's kernels; .carry/wheels, scripts/build_wheel.sh)
# with this tree's tests and benchmarks: the mHC pre / delayed / hc_head CUDA tests (the new stream and span cases), then
# bench_mhc at D = 4096 and 7168 -> results/mhc (kernel time from CUDA-graph replays).
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
(cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_hc_head.py -k cuda 2>&1 | tail -3) | tee $OUT/tests.log
for d in 4096 7168; do
  timeout 200 python3 benchmarks/bench_mhc.py --no-compile --hidden $d --out $OUT/mhc_$d > $OUT/bench_mhc_$d.log 2>&1; echo "bench_mhc $d rc $?"
  grep -E "\| (1|8|64|4096|16384|65536) \|" $OUT/mhc_$d/mhc.md | cut -d'|' -f2-8
done
tar czf $OUT/results.tgz -C $OUT mhc_4096 mhc_7168 && rm -rf $OUT/mhc_4096 $OUT/mhc_7168
