#!/usr/bin/env bash
# Session 25, call 2: fk (rank_few_keys: the k-th key ranked among <= 32 keys sharing its prefix instead of a
# third digit pass, every kernel of topk.cu) and fkc (the same in the clustered decode kernels only) against
# t24b (main, 350de5b). The top-k CUDA tests (new: test_few_keys_on_the_kth_prefix) and race23_decode.py on
# fk and fkc; draws.py (8 random draws a decode shape) two rounds; bench_topk.py one round (prefill rows).
# Carry .carry/w/{t24b,fk,fkc}.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
W=benchmarks/results/gpu_logs/2026-11-27w/scripts
Y=benchmarks/results/gpu_logs/2026-11-28y/scripts
for w in t24b fk fkc; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for w in fk fkc; do
  echo "== $w"
  (cd tests/python && PYTHONPATH=/tmp/ab/$w timeout 150 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -n2)
  PYTHONPATH=/tmp/ab/$w timeout 120 python3 $W/race23_decode.py 2>&1 | tail -n2
done 2>&1 | tee $OUT/tests.log
for rep in 1 2; do for w in t24b fk fkc; do PYTHONPATH=/tmp/ab/$w timeout 90 python3 $Y/draws.py $w; done; done 2>&1 | tee $OUT/draws.log
for w in t24b fk fkc; do
  PYTHONPATH=/tmp/ab/$w timeout 100 python3 benchmarks/bench_topk.py --out /tmp/bt_$w > /dev/null 2>&1; echo "== $w rc $?"
  grep -E "prefill|ragged|decode" /tmp/bt_$w/topk.md | cut -d'|' -f2-4,6
done 2>&1 | tee $OUT/bench_topk_ab.log
