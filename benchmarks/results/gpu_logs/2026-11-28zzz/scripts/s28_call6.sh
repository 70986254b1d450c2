#!/usr/bin/env bash
# Session 28, call 6. ppf (pairs_fenced_ppf.diff: call 1's pp on top of main after session 28, with a CTA fence before
# both pair warps' releases) against f4f (main after session 28) and m27: run-to-run determinism at D = 7168, same bits,
# A/B of the 24-row ops at D = 7168 (two rounds), the CUDA tests of mhc_pre / mhc_pre_delayed on ppf.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zzz/scripts
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
bash $S/s28_setup.sh f4f ppf
PYTHONPATH=/tmp/ab/ppf timeout 100 python3 $S/det28.py ppf 10 7168 2>&1 | tee $OUT/det.log
export SB_T=16,512,600,1024,1601,4100 SB_OPS=mhc_pre,mhc_pre_delayed
PYTHONPATH=/tmp/ab/m27 timeout 100 python3 $R/same_bits18.py m27 2>&1 | tail -1
PYTHONPATH=/tmp/ab/ppf timeout 100 python3 $R/same_bits18.py ppf m27 2>&1 | tail -1 | tee -a $OUT/same_bits.log
rm -f $OUT/*.pt
for rep in 1 2; do for w in f4f ppf; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $P/ab16.py $w "4096 16384" 7168 mhc_pre,mhc_pre_delayed
done; done 2>&1 | tee $OUT/ab7168.log
export PYTHONPATH=/tmp/ab/ppf
(cd tests/python && timeout 120 python3 -m pytest -q -rf -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py -k cuda 2>&1 | tail -4) | tee $OUT/tests.log
