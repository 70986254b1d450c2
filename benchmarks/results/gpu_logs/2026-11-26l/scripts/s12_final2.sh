#!/usr/bin/env bash
# Session 2026-11-26 (12), final call 2: the landed build: the top-k / ragged_pack CUDA tests; memcheck / racecheck over
# race_s12.py (the pipeline mHC ops at T = 1, 16, 200; the composed final seam at T = 1030); bench_topk -> results/topk.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
(cd tests/python && timeout 200 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py test_ragged_pack.py -k cuda 2>&1 | tail -2) | tee $OUT/tests_topk.log
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 python3 .carry/s12/race_s12.py > $OUT/${tool}.log 2>&1; echo "$tool rc $?"; tail -1 $OUT/${tool}.log
done
timeout 200 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"; grep -E "prefill|ragged|1x65536|64x262144" $OUT/topk/topk.md | cut -d'|' -f2-6
tar czf $OUT/results_topk.tgz -C $OUT topk && rm -rf $OUT/topk
