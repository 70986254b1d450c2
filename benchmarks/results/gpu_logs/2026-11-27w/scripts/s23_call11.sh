#!/usr/bin/env bash
# Session 23, call 11: so (the working tree: finish_candidates' overflow test by one __syncthreads_or instead of two
# barriers and a loop over the warps' counts; the all-to-all's send targets without a modulo) and su (so +
# su_patch.py: the receive loop unrolled) against ob (main): race23_decode.py on so and su, ab_decode.py two rounds,
# bench_topk.py two rounds. Carry .carry/w/{ob,so,su}.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
V=benchmarks/results/gpu_logs/2026-11-27v/scripts
W=benchmarks/results/gpu_logs/2026-11-27w/scripts
for w in ob so su; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for w in so su; do echo "== $w"; PYTHONPATH=/tmp/ab/$w timeout 120 python3 $W/race23_decode.py 2>&1 | tail -n3; done | tee $OUT/race23_plain.log
for rep in 1 2; do for w in ob so su; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 $V/ab_decode.py $w; done; done 2>&1 | tee $OUT/ab_decode.log
for rep in 1 2; do for w in ob so su; do
  PYTHONPATH=/tmp/ab/$w timeout 100 python3 benchmarks/bench_topk.py --out /tmp/bt_${w}_$rep > /dev/null 2>&1; echo "== $w round $rep rc $?"
  grep -E "prefill|ragged|1x65536 k=2048|64x65536 k=2048|64x262144 k=2048" /tmp/bt_${w}_$rep/topk.md | cut -d'|' -f2-4,6
done; done 2>&1 | tee $OUT/bench_topk_ab.log
