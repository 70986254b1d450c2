#!/usr/bin/env bash
# Prepared in session 27 for the next session (not run): wc (warp_rows_clamp_wc_patch.py: the warp-row top-k counts
# digits of 10 / 11 / 11 bits and bins a key by min((key - prefix) >> shift, 2048) after the first pass; the write takes
# key >= prefix; ~250 fewer SASS instructions in the 64-key kernel, logic emulated in warp_rows_clamp_emulate.py:
# 3000 rows exact, mutations caught) against main (wheel m): A/B of the warp-row shapes (two rounds, every result
# checked), then on wc the top-k CUDA tests and race_wr27.py plain and under memcheck / racecheck. Build both
# wheels first; carry .carry/w/{m,wc}.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
N=benchmarks/results/gpu_logs/2026-11-27n/scripts
for w in m wc; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for rep in 1 2; do for w in m wc; do PYTHONPATH=/tmp/ab/$w timeout 150 python3 $N/ab_rows14.py $w; done; done 2>&1 | tee $OUT/ab_rows.log
export PYTHONPATH=/tmp/ab/wc
(cd tests/python && timeout 300 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
timeout 60 python3 benchmarks/results/gpu_logs/2026-11-28zz/scripts/race_wr27.py | tail -3
for t in memcheck racecheck; do timeout 150 compute-sanitizer --tool $t --error-exitcode 1 python3 benchmarks/results/gpu_logs/2026-11-28zz/scripts/race_wr27.py > $OUT/${t}_race_wr27.log 2>&1; echo "$t rc $?"; tail -n1 $OUT/${t}_race_wr27.log; done
