#!/usr/bin/env bash
# Session 28, call 1. pp (pairs_pp: the D = 7168 24-row projection split by stream pairs, project_pairs_tf32) against
# m27 (main): same bits; A/B at D = 7168 with f4 (fn float4 loads) and the knockouts kb / ka of main (timing only);
# then on pp the CUDA tests of mhc_pre / mhc_pre_delayed and memcheck over race27.py.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zzz/scripts; S27=benchmarks/results/gpu_logs/2026-11-28zz/scripts
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
bash $S/s28_setup.sh pp f4 kb ka
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
export SB_T=16,512,600,1024,1601,4100 SB_OPS=mhc_pre,mhc_pre_delayed
PYTHONPATH=/tmp/ab/m27 timeout 120 python3 $R/same_bits18.py m27 2>&1 | tail -1
PYTHONPATH=/tmp/ab/pp timeout 120 python3 $R/same_bits18.py pp m27 2>&1 | tail -1 | tee -a $OUT/same_bits.log
rm -f $OUT/*.pt
for rep in 1 2; do for w in m27 pp f4 kb ka; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $P/ab16.py $w "4096 16384" 7168 mhc_pre,mhc_pre_delayed
done; done 2>&1 | tee $OUT/ab7168.log
export PYTHONPATH=/tmp/ab/pp
(cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 1 python3 $S27/race27.py delayed_nn,pre > $OUT/memcheck_race27.log 2>&1; echo "memcheck rc $?"; tail -n1 $OUT/memcheck_race27.log
