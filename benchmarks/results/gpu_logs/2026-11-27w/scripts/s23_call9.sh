#!/usr/bin/env bash
# Session 23, call 9: ob (a3 + ob_patch.py: ordered_bases' sums by warp reductions) and ws (ob + ws_patch.py: the
# 1024-thread kernels' picks on CUB's warp-scans block scan) against a3 (main): race23_decode.py on ob and ws,
# ab_decode.py two rounds, then bench_topk.py (every shape, prefill included) two rounds. Carry .carry/w/{a3,ob,ws}.
# Arguments: other wheels, the baseline first (.carry/w/NAME; call 11: ob so su).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
V=benchmarks/results/gpu_logs/2026-11-27v/scripts
W=benchmarks/results/gpu_logs/2026-11-27w/scripts
B=${1:-a3}; T="${2:-ob} ${3:-ws}"
for w in $B $T; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for w in $T; do echo "== $w"; PYTHONPATH=/tmp/ab/$w timeout 120 python3 $W/race23_decode.py 2>&1 | tail -n3; done | tee $OUT/race23_plain.log
for rep in 1 2; do for w in $B $T; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 $V/ab_decode.py $w; done; done 2>&1 | tee $OUT/ab_decode.log
for rep in 1 2; do for w in $B $T; do
  PYTHONPATH=/tmp/ab/$w timeout 100 python3 benchmarks/bench_topk.py --out /tmp/bt_${w}_$rep > /dev/null 2>&1; echo "== $w round $rep rc $?"
  grep -E "prefill|ragged|1x65536 k=2048|64x65536 k=2048|64x262144 k=2048" /tmp/bt_${w}_$rep/topk.md | cut -d'|' -f2-4,6
done; done 2>&1 | tee $OUT/bench_topk_ab.log
