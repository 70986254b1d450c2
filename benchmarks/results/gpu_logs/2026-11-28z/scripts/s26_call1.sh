#!/usr/bin/env bash
# Session 26 call 1: runs session 25's next_wp_a.sh unchanged (wp against t24b).
# Prepared in session 25 for the next session (not run): wp (warp_total_pick_patch.py: the block-wide picks from
# the warps' totals instead of CUB's raking block scan; ptxas: every 1024-thread kernel 0 bytes of spills, from
# 12-40, and 1.5-2.5 K fewer instructions; the four-block kernel 12/20 bytes from 4/8) against t24b (main).
# Timing first, then the plain correctness runs: draws.py two rounds, bench_topk.py (seeded) one round each,
# race_few.py, race23_decode.py, race23_prefill.py and the top-k / ragged_pack CUDA tests on wp.
# Carry .carry/w/{t24b,wp}; rebuild wp first if topk.cu changed (/tmp/vb/build.sh wp "python3 <patch>").
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
W=benchmarks/results/gpu_logs/2026-11-27w/scripts
Y=benchmarks/results/gpu_logs/2026-11-28y/scripts
for w in t24b wp; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for rep in 1 2; do for w in t24b wp; do PYTHONPATH=/tmp/ab/$w timeout 90 python3 $Y/draws.py $w; done; done 2>&1 | tee $OUT/draws.log
for w in t24b wp; do
  PYTHONPATH=/tmp/ab/$w timeout 100 python3 benchmarks/bench_topk.py --out $OUT/bt_$w > /dev/null 2>&1; echo "== $w rc $?"
  grep -E "prefill|decode|ragged" $OUT/bt_$w/topk.md | cut -d'|' -f2-5
done 2>&1 | tee $OUT/bench_topk_ab.log
export PYTHONPATH=/tmp/ab/wp
(timeout 120 python3 $Y/race_few.py 2>&1 | tail -n1; timeout 120 python3 $W/race23_decode.py 2>&1 | tail -n1
 timeout 120 python3 $W/race23_prefill.py 2>&1 | tail -n1) | tee $OUT/race_plain.log
(cd tests/python && timeout 200 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py test_ragged_pack.py -k cuda 2>&1 | tail -n1) | tee $OUT/tests_topk.log
