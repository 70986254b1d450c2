#!/usr/bin/env bash
# Session 28, call 2. ps (project_streams_tf32: the D = 7168 24-row projection split by stream, each warp all 32 tokens
# and 3 row tiles, the four stream chains added by the warp that owns an output group) and f4 (fn float4 loads in
# project_tf32) against m27 (main): same bits; A/B at D = 7168 with kc (main's ring collapse without math: timing
# only); wc (top-k warp rows, digits 10/11/11) A/B on the warp-row shapes; on ps: CUDA tests, memcheck, racecheck.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zzz/scripts; S27=benchmarks/results/gpu_logs/2026-11-28zz/scripts
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
N=benchmarks/results/gpu_logs/2026-11-27n/scripts
bash $S/s28_setup.sh ps f4 kc wc
export SB_T=16,512,600,1024,1601,4100 SB_OPS=mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head
PYTHONPATH=/tmp/ab/m27 timeout 120 python3 $R/same_bits18.py m27 2>&1 | tail -1
for w in ps f4; do PYTHONPATH=/tmp/ab/$w timeout 120 python3 $R/same_bits18.py $w m27 2>&1 | tail -1 | tee -a $OUT/same_bits.log; done
rm -f $OUT/*.pt
for rep in 1 2; do for w in m27 ps f4 kc; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $P/ab16.py $w "4096 16384" 7168 mhc_pre,mhc_pre_delayed
done; done 2>&1 | tee $OUT/ab7168.log
for rep in 1 2; do for w in m27 wc; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $N/ab_rows14.py $w; done; done 2>&1 | tee $OUT/ab_rows.log
export PYTHONPATH=/tmp/ab/ps
(cd tests/python && timeout 150 python3 -m pytest -q -rf -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py -k cuda 2>&1 | tail -6) | tee $OUT/tests.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 1 python3 $S27/race27.py delayed_nn,pre > $OUT/memcheck_race27.log 2>&1; echo "memcheck rc $?"; tail -n1 $OUT/memcheck_race27.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 1 python3 $S27/race27.py delayed_nn,pre > $OUT/racecheck_race27.log 2>&1; echo "racecheck rc $?"; tail -n1 $OUT/racecheck_race27.log
