#!/usr/bin/env bash
# Session 28, call 3. Run-to-run determinism (det28.py) of m27 (main) and f4 (call 2: f4 differed from m27 at mhc_pre
# with the norm, T = 512, by construction the same values: is main deterministic?); f4 vs m27 A/B on hc_head and the
# seam at D = 7168; wc (top-k warp rows) CUDA top-k tests and race_wr27.py plain, under memcheck and racecheck.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zzz/scripts; S27=benchmarks/results/gpu_logs/2026-11-28zz/scripts
P=benchmarks/results/gpu_logs/2026-11-27p/scripts
bash $S/s28_setup.sh f4 wc
for w in m27 f4; do PYTHONPATH=/tmp/ab/$w timeout 120 python3 $S/det28.py $w 30; done 2>&1 | tee $OUT/det.log
for rep in 1 2; do for w in m27 f4; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $P/ab16.py $w "4096 16384" 7168 hc_head,mhc_post_hc_head
done; done 2>&1 | tee $OUT/ab_head7168.log
export PYTHONPATH=/tmp/ab/wc
(cd tests/python && timeout 200 python3 -m pytest -q -rf -p no:cacheprovider test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k cuda 2>&1 | tail -4) | tee $OUT/tests_wc.log
timeout 60 python3 $S27/race_wr27.py | tail -3
for t in memcheck racecheck; do timeout 120 compute-sanitizer --tool $t --error-exitcode 1 python3 $S27/race_wr27.py > $OUT/${t}_race_wr27.log 2>&1; echo "$t rc $?"; tail -n1 $OUT/${t}_race_wr27.log; done
