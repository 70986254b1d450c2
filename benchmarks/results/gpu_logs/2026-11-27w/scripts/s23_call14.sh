#!/usr/bin/env bash
# Session 23, call 14: nb (main + nb_patch.py: pick_digit without its last block barrier) against su (main, c2837cc's
# kernels): racecheck / memcheck over race23_decode.py's all-to-all shapes and race23_prefill.py on nb, then
# ab_decode.py and bench_topk.py two rounds. Carry .carry/w/su, .carry/w/nb.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
V=benchmarks/results/gpu_logs/2026-11-27v/scripts
W=benchmarks/results/gpu_logs/2026-11-27w/scripts
for w in su nb; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONPATH=/tmp/ab/nb
for t in racecheck memcheck; do
  timeout 150 compute-sanitizer --tool $t --error-exitcode 1 python3 $W/race23_decode.py 0 1 3 > $OUT/${t}_decode.log 2>&1; echo "$t decode rc $?"; tail -n1 $OUT/${t}_decode.log
  timeout 100 compute-sanitizer --tool $t --error-exitcode 1 python3 $W/race23_prefill.py > $OUT/${t}_prefill.log 2>&1; echo "$t prefill rc $?"; tail -n1 $OUT/${t}_prefill.log
done
unset PYTHONPATH
for rep in 1 2; do for w in su nb; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 $V/ab_decode.py $w; done; done 2>&1 > $OUT/ab_decode.log; grep -E "1x65536 k=2048|1x262144 k=2048|64x65536 k=2048|64x262144 k=2048|ok=False" $OUT/ab_decode.log
for rep in 1 2; do for w in su nb; do
  PYTHONPATH=/tmp/ab/$w timeout 100 python3 benchmarks/bench_topk.py --out /tmp/bt_${w}_$rep > /dev/null 2>&1; echo "== $w round $rep rc $?"
  grep -E "prefill|1x65536 k=2048|64x65536 k=2048" /tmp/bt_${w}_$rep/topk.md | cut -d'|' -f2-4
done; done 2>&1 | tee $OUT/bench_topk_ab.log
