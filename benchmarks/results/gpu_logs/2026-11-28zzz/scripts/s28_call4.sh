#!/usr/bin/env bash
# Session 28, call 4. f4f = the working tree: f4 (fn float4 loads) + a CTA fence before the projection's slot release
# (project_tf32) + wc (top-k warp rows, digits 10/11/11). Against m27 (main): run-to-run determinism (det28.py, D = 7168
# and 4096), same bits (decode and prefill sizes, every mHC op), A/B at D = 7168; on f4f the CUDA tests of every mHC op
# (test_cuda_repeat_identical now 8 repeats) and of top-k.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zzz/scripts
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
bash $S/s28_setup.sh f4f
for w in f4f m27; do PYTHONPATH=/tmp/ab/$w timeout 150 python3 $S/det28.py $w 20; done 2>&1 | tee $OUT/det.log
export SB_T=1,16,512,600,1024,1601,4100
PYTHONPATH=/tmp/ab/m27 timeout 150 python3 $R/same_bits18.py m27 2>&1 | tail -1
PYTHONPATH=/tmp/ab/f4f timeout 150 python3 $R/same_bits18.py f4f m27 2>&1 | tail -1 | tee -a $OUT/same_bits.log
rm -f $OUT/*.pt
for rep in 1 2; do for w in m27 f4f; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $P/ab16.py $w "4096 16384" 7168 mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head
done; done 2>&1 | tee $OUT/ab7168.log
export PYTHONPATH=/tmp/ab/f4f
(cd tests/python && timeout 240 python3 -m pytest -q -rf -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_top_k_per_row_prefill.py test_top_k_per_row_decode.py -k "cuda or gpu" 2>&1 | tail -6) | tee $OUT/tests.log
