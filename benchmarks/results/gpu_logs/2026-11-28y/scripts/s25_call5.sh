#!/usr/bin/env bash
# Session 25, call 5: obf (kA2a clusters settle a prefix of <= 32 keys in ordered_bases' exchange instead of a
# third digit pick) against t24b (main). race_few.py and race23_decode.py, the top-k CUDA tests on obf; draws.py two
# rounds; bench_topk.py (seeded draws) one round each. Carry .carry/w/{t24b,obf}.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
W=benchmarks/results/gpu_logs/2026-11-27w/scripts
Y=benchmarks/results/gpu_logs/2026-11-28y/scripts
for w in t24b obf; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
(PYTHONPATH=/tmp/ab/obf timeout 120 python3 $Y/race_few.py 2>&1 | tail -n3
 PYTHONPATH=/tmp/ab/obf timeout 120 python3 $W/race23_decode.py 2>&1 | tail -n2
 cd tests/python && PYTHONPATH=/tmp/ab/obf timeout 180 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -n2) | tee $OUT/tests.log
for rep in 1 2; do for w in t24b obf; do PYTHONPATH=/tmp/ab/$w timeout 90 python3 $Y/draws.py $w; done; done 2>&1 | tee $OUT/draws.log
for w in t24b obf; do
  PYTHONPATH=/tmp/ab/$w timeout 100 python3 benchmarks/bench_topk.py --out /tmp/bt_$w > /dev/null 2>&1; echo "== $w rc $?"
  grep -E "prefill|decode" /tmp/bt_$w/topk.md | cut -d'|' -f2-5
done 2>&1 | tee $OUT/bench_topk_ab.log
