#!/usr/bin/env bash
# Session 22, call 4. gb (the working tree: ga with finish_gathered out of line, the group state by value; spills back
# to 68-80 bytes, none after a stream load) against
# g8 (main's kernels): ab_decode.py two rounds; gb: race22_decode.py plain, then under memcheck / racecheck; the top-k
# CUDA tests; gt (trace_decode_gt_patch.py: phase stamps of gb) with trace_decode.py.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
V=benchmarks/results/gpu_logs/2026-11-27v/scripts
U=benchmarks/results/gpu_logs/2026-11-27u/scripts
for w in g8 gb; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/gb timeout 60 python3 $V/race22_decode.py 2>&1 | tail -3 | tee $OUT/race22_plain.log
for rep in 1 2; do for w in g8 gb; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 $V/ab_decode.py $w; done; done 2>&1 | tee $OUT/ab_decode.log
for tool in memcheck racecheck; do
  PYTHONPATH=/tmp/ab/gb timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 python3 $V/race22_decode.py > $OUT/${tool}.log 2>&1; echo "$tool rc $?"; tail -1 $OUT/${tool}.log
done
(cd tests/python && PYTHONPATH=/tmp/ab/gb timeout 150 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_topk.log
rm -rf /tmp/ab/gt; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/gt .carry/w/gt/*.whl
PYTHONPATH=/tmp/ab/gt timeout 60 python3 $U/trace_decode.py 2>&1 | tee $OUT/trace_decode_gt.log
