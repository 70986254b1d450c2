#!/usr/bin/env bash
# Prepared in session 33 (not run): the first call of the next session. Main (19611b6, cpg + rb) composes 18 kernels
# anew (the seam's TMA kernels with the norm or at D = 7168; the pipeline's normed fused, fused delayed and seam
# kernels: rb's collapse8 / cpg's gram_own with main's post_chunk), which ran on the GPU only as parts. Checks them:
# the fused / seam tests, same bits against m32 (5e53c0f), racecheck and memcheck of ../call4/race33b.py, decode A/B
# two rounds. Then wr on main (m33wr = main + ../../2026-12-07b/scripts/wr_lean_write.diff): the top-k tests and A/B.
# "ps": same bits against main at every TMA op and size, determinism and A/B (two rounds, both D) of two stacks of
# helper-prepared same-bits trims (NOTES, session 33): m33pscl = main + proj_stage_ps.diff (the TMA ring's slot,
# parity, barrier and stage addresses stepped from stage to stage: D = 7168 mhc_pre's producer 64 -> 53 instructions
# a stage, the projection warps 369 / 344 -> 361 / 335) + collapse4096_cl.diff (the NaN tests of round_bf16x8 /
# store_bf16x8 a pair of values a compare: the D = 4096 normed collapse 285 -> 261 a stage); m33psclgw = m33pscl +
# gram4096_gw_on_pscl.diff (the D = 4096 Gram warps' quad sum reduce-scattered: 376 -> 306 a stage with the norm).
# "pstests": m33psclgw's sanitizers, tests and decode rows.
# Wheels: m33 = main's (.carry/w/m33); m32, m33wr, m33pscl and m33psclgw as .so in .carry/so.tar.xz
# (variant_so_xz.sh m32 m33wr m33pscl m33psclgw). Carry [".carry/w/m33", ".carry/so.tar.xz"] (62 MiB with the tree).
# Argument: any of "mhc", "wr", "ps", "pstests"; default "mhc". Each is about one call's time (estimated 4-8
# minutes): run them in separate calls.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
WHAT=${*:-mhc}
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
grep -q H200 $OUT/gpu.txt && export AB_BW=4.17e12 || export AB_BW=2.95e12
Z=benchmarks/results/gpu_logs/2026-11-28zzz/scripts
L=benchmarks/results/gpu_logs/2026-12-07c
[ -d /tmp/ab/m33psclgw ] || BASE=m33 bash $Z/s28_setup.sh m32 m33wr m33pscl m33psclgw
if [[ " $WHAT " == *" mhc "* ]]; then
  export SB_T=1,5,16,29,64,1024,1100,4100 SB_OPS=mhc_fused_post_pre,mhc_fused_post_pre_delayed,mhc_post_hc_head
  SB=benchmarks/results/gpu_logs/2026-11-27r/scripts/same_bits18.py; mkdir -p /tmp/sb
  (OUT=/tmp/sb PYTHONPATH=/tmp/ab/m32 timeout 120 python3 $SB m32
   OUT=/tmp/sb PYTHONPATH=/tmp/ab/m33 timeout 120 python3 $SB m33 m32) 2>&1 | tee $OUT/bits.log
  (cd tests/python && PYTHONPATH=/tmp/ab/m33 timeout 240 python3 -m pytest -q -p no:cacheprovider \
    test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_mhc_post_hc_head.py 2>&1 | tail -n 3) \
    | tee $OUT/tests_m33.log
  for tool in racecheck memcheck; do
    PYTHONPATH=/tmp/ab/m33 timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 python3 $L/call4/race33b.py \
      > $OUT/san_${tool}_m33.log 2>&1; echo "$tool m33 rc $?"; tail -n 2 $OUT/san_${tool}_m33.log
  done
  AB=benchmarks/results/gpu_logs/2026-11-27p/scripts/ab16.py
  for rep in 1 2; do for w in m32 m33; do for d in 4096 7168; do
    PYTHONPATH=/tmp/ab/$w timeout 60 python3 $AB $w "1 16" $d mhc_pre,mhc_post_hc_head,mhc_fused_post_pre
  done; done; done 2>&1 | tee $OUT/ab_decode.log
fi
if [[ " $WHAT " == *" wr "* ]]; then
  S=benchmarks/results/gpu_logs/2026-12-07b/scripts
  (cd tests/python && PYTHONPATH=/tmp/ab/m33wr timeout 400 python3 -m pytest -q -p no:cacheprovider \
    test_top_k_per_row_prefill.py test_top_k_per_row_decode.py 2>&1 | tail -n 3) | tee $OUT/tests_wr.log
  for rep in 1 2; do for w in m33 m33wr; do PYTHONPATH=/tmp/ab/$w timeout 90 python3 $S/ab_topk32.py $w; done; done \
    2>&1 | tee $OUT/ab_topk.log
fi
if [[ " $WHAT " == *" ps "* ]]; then
  export SB_T=1,5,16,64,1024,1100,4100,9000
  export SB_OPS=mhc_pre,mhc_pre_delayed,mhc_fused_post_pre,mhc_fused_post_pre_delayed,hc_head,mhc_post_hc_head
  SB=benchmarks/results/gpu_logs/2026-11-27r/scripts/same_bits18.py; mkdir -p /tmp/sb
  (OUT=/tmp/sb PYTHONPATH=/tmp/ab/m33 timeout 120 python3 $SB m33
   for w in m33pscl m33psclgw; do OUT=/tmp/sb PYTHONPATH=/tmp/ab/$w timeout 120 python3 $SB $w m33; done) 2>&1 \
    | tee $OUT/bits_ps.log
  for d in 4096 7168; do DET_OPS=mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head PYTHONPATH=/tmp/ab/m33psclgw timeout 60 \
    python3 $Z/det28.py m33psclgw 5 $d; done 2>&1 | tee $OUT/det_ps.log
  AB=benchmarks/results/gpu_logs/2026-11-27p/scripts/ab16.py
  for rep in 1 2; do for w in m33 m33pscl m33psclgw; do for d in 4096 7168; do
    PYTHONPATH=/tmp/ab/$w timeout 90 python3 $AB $w "4096 16384 65536" $d hc_head,mhc_pre,mhc_pre_delayed,mhc_post_hc_head,mhc_fused_post_pre
  done; done; done 2>&1 | tee $OUT/ab_ps.log
fi
if [[ " $WHAT " == *" pstests "* ]]; then
  for f in $L/scripts/race33.py $L/call4/race33b.py; do for tool in racecheck memcheck; do
    PYTHONPATH=/tmp/ab/m33psclgw timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 python3 $f \
      > $OUT/san_${tool}_psclgw_$(basename $f .py).log 2>&1; echo "$tool $(basename $f) m33psclgw rc $?"
  done; done
  (cd tests/python && PYTHONPATH=/tmp/ab/m33psclgw timeout 300 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py \
    test_mhc_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_mhc_fused_post_pre.py 2>&1 | tail -n 3) \
    | tee $OUT/tests_psclgw.log
  for d in 4096 7168; do for w in m33 m33psclgw; do
    PYTHONPATH=/tmp/ab/$w timeout 60 python3 benchmarks/results/gpu_logs/2026-11-27p/scripts/ab16.py $w "1 16" $d \
      mhc_pre,mhc_post_hc_head,mhc_fused_post_pre
  done; done 2>&1 | tee $OUT/ab_decode_psclgw.log
fi
