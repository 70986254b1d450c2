#!/usr/bin/env bash
# Session 26 call 4: g7b (the post warps' Gram from their own words, no pair barrier or re-read:
# gram_in_post_7168_g7b.diff) and g7k (a timing knockout: no Gram anywhere, zero squares pushed; wrong values)
# against t24b (main): same bits of g7b (mhc_post_hc_head, both D), A/B of the seam at D = 7168, two rounds.
# Carry .carry/w/{t24b,g7b,g7k}.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
for w in t24b g7b g7k; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export SB_T=1,16,1024,1536,1601,2093,4096,4100 SB_OPS=mhc_post_hc_head
PYTHONPATH=/tmp/ab/t24b timeout 150 python3 $R/same_bits18.py t24b 2>&1 | tail -1
PYTHONPATH=/tmp/ab/g7b timeout 150 python3 $R/same_bits18.py g7b t24b 2>&1 | tail -1 | tee $OUT/same_bits.log
rm -f $OUT/*.pt
for rep in 1 2; do for w in t24b g7b g7k; do
  PYTHONPATH=/tmp/ab/$w timeout 150 python3 $P/ab16.py $w "4096 16384 65536" 7168 mhc_post_hc_head
done; done 2>&1 | tee $OUT/ab7168.log
