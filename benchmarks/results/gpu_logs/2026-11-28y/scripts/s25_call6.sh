#!/usr/bin/env bash
# Session 25, call 6: pc (`preclear_pc.diff`: no overflow barrier where a segment holds a warp's whole chunk, and the
# clustered kernels clear the exact sample's next-digit histogram with the first, so that no block barrier stands
# between a warp's stream and its count of the second digit) against t24b (main). race_few.py, race23_decode.py
# plain, racecheck / synccheck over race23_decode.py's all-to-all shapes (0 1 3), the top-k CUDA tests on pc;
# draws.py two rounds. Carry .carry/w/{t24b,pc}.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
W=benchmarks/results/gpu_logs/2026-11-27w/scripts
Y=benchmarks/results/gpu_logs/2026-11-28y/scripts
for w in t24b pc; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for rep in 1 2; do for w in t24b pc; do PYTHONPATH=/tmp/ab/$w timeout 90 python3 $Y/draws.py $w; done; done 2>&1 | tee $OUT/draws.log
export PYTHONPATH=/tmp/ab/pc
(timeout 120 python3 $Y/race_few.py 2>&1 | tail -n2; timeout 120 python3 $W/race23_decode.py 2>&1 | tail -n2) | tee $OUT/race_plain.log
for t in racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $t --error-exitcode 1 python3 $W/race23_decode.py 0 1 3 > $OUT/$t.log 2>&1; echo "$t rc $?"; tail -n1 $OUT/$t.log
done
(cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -n1) | tee $OUT/tests.log
