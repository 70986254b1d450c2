#!/usr/bin/env bash
# Session 14, call 6: pk (one-warp top-k rows count into 16-bit bins, two a word: four blocks an SM instead of three)
# against base (f0dcd91): the top-k CUDA tests on pk (stop on failure), A/B of the warp-row shapes two rounds.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in base pk; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
(cd tests/python && PYTHONPATH=/tmp/ab/pk timeout 200 python3 -m pytest -q -x -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_pk.log
grep -q " passed" $OUT/tests_pk.log && ! grep -q "failed" $OUT/tests_pk.log || exit 1
for rep in 1 2; do for w in base pk; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 .carry/s14/ab_rows14.py $w; done; done 2>&1 | tee $OUT/ab_rows.log
PYTHONPATH=/tmp/ab/pk timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 python3 .carry/s14/race_topk14.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -1 $OUT/memcheck.log
PYTHONPATH=/tmp/ab/pk timeout 120 compute-sanitizer --tool racecheck --error-exitcode 1 python3 .carry/s14/race_topk14.py > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -1 $OUT/racecheck.log
