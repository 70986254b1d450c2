#!/usr/bin/env bash
# Session 22, call 1. Wheels: l21f (77eed5c: main's kernels), g8 (main + ../../2026-11-27u/scripts/eight_warps_g8.diff:
# few rows of 4097-8192 columns on eight warps of 32 keys), td (main + ../../2026-11-27u/scripts/trace_decode_td_patch.py:
# clock64 phase stamps of clustered decode rows).
# td trace; ab_g8.py two rounds; g8: top-k CUDA tests, memcheck / racecheck over race21_topk.py.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
V=benchmarks/results/gpu_logs/2026-11-27v/scripts
U=benchmarks/results/gpu_logs/2026-11-27u/scripts
for w in l21f g8 td; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/td timeout 60 python3 $U/trace_decode.py 2>&1 | tee $OUT/trace_decode.log
for rep in 1 2; do for w in l21f g8; do PYTHONPATH=/tmp/ab/$w timeout 40 python3 $U/ab_g8.py $w; done; done 2>&1 | tee $OUT/ab_g8.log
(cd tests/python && PYTHONPATH=/tmp/ab/g8 timeout 150 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -1) | tee $OUT/tests_topk.log
for tool in memcheck racecheck; do
  PYTHONPATH=/tmp/ab/g8 timeout 80 compute-sanitizer --tool $tool --error-exitcode 1 python3 $U/race21_topk.py > $OUT/${tool}.log 2>&1; echo "$tool rc $?"; tail -1 $OUT/${tool}.log
done
