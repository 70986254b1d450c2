#!/usr/bin/env bash
# Prepared in session 32 (not run: the device budget was spent). Two same-bits trims of bf16 conversions, nf's form.
# rb (round_bf16x8_rb.diff): the fused norm's rounding
# of the collapse, round_bf16 of each of 8 values (a cvt with a zero partner, the mask, and to_bf16's NaN fix-ups a
# value), becomes round_bf16x8: two values a plain cvt, the NaN fix-ups only when one of the 8 is a NaN (nf's form,
# which made the D = 7168 TMA ops 1.5-5 % faster in session 32). Used by collapse8<true> (mhc_pre / the delayed op /
# the fused ops with the norm, TMA re-read collapse and pipeline) and hc_head's held collapse with the final norm (the
# seam). Same bits by construction. ptxas (mhc_pre TU): the D = 7168 norm TMA kernel 4 / 8 -> 12 / 20 bytes of spill
# stores / loads, three norm pipeline kernels 8 / 20 -> 12 / 32, 20 / 64 -> 36 / 48, 4 / 16 -> 8 / 20 (NOTES, session 32).
# pc (post_chunk_nan_fast_pc.diff): post_chunk (the post of the fused ops and of the seam's post warpgroup: 4 streams x 2
# d a 32-bit word) packs each word's 8 values by the plain cvt and takes pack_bf16x2's fix-ups only when one is a NaN;
# same bits by construction. ptxas: the seam's TMA kernels 0 spills as before; the pipeline kernels of the seam TU
# mostly spill less (no-norm 32 / 52 -> 0 at 16-token tiles), the fused op's 16-token kTf32 norm kernel 16 / 28 ->
# 20 / 56 bytes, others less. Targets: the seam at D = 4096, T = 4096 (79 %, issue 14 asks 85) and the fused ops.
# Build here: `../../2026-11-28zzz/scripts/variant_build.sh V "git apply ..."` for rb, pc and rbpc (both), then
# `variant_so_xz.sh rb pc rbpc`; m32 = main 5e53c0f's wheel (.carry/w/m32).
# Carry [".carry/w/m32", ".carry/so.tar.xz"]. Same bits, determinism, A/B two rounds (norm ops, both D, decode), tests,
# racecheck / memcheck.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
grep -q H200 $OUT/gpu.txt && export AB_BW=4.17e12 || export AB_BW=2.95e12
Z=benchmarks/results/gpu_logs/2026-11-28zzz/scripts
BASE=m32 bash $Z/s28_setup.sh rb pc rbpc
export SB_T=1,5,16,64,1024,1100,4100,9000 SB_OPS=mhc_pre,mhc_pre_delayed,mhc_fused_post_pre,mhc_post_hc_head
SB=benchmarks/results/gpu_logs/2026-11-27r/scripts/same_bits18.py; mkdir -p /tmp/sb
(OUT=/tmp/sb PYTHONPATH=/tmp/ab/m32 timeout 120 python3 $SB m32
 for w in rb pc rbpc; do OUT=/tmp/sb PYTHONPATH=/tmp/ab/$w timeout 120 python3 $SB $w m32; done) 2>&1 | tee $OUT/bits.log
DET_OPS=mhc_pre,mhc_post_hc_head PYTHONPATH=/tmp/ab/rbpc timeout 90 python3 $Z/det28.py rbpc 10 4096 2>&1 | tee $OUT/det.log
AB=benchmarks/results/gpu_logs/2026-11-27p/scripts/ab16.py
for rep in 1 2; do for w in m32 rb pc rbpc; do for d in 4096 7168; do
  PYTHONPATH=/tmp/ab/$w timeout 90 python3 $AB $w "4096 16384 65536" $d mhc_pre,mhc_pre_delayed,mhc_post_hc_head,mhc_fused_post_pre
done; done; done 2>&1 | tee $OUT/ab.log
for w in m32 rbpc; do for d in 4096 7168; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $AB $w "1 8 64" $d mhc_pre,mhc_post_hc_head,mhc_fused_post_pre
done; done 2>&1 | tee $OUT/ab_decode.log
(cd tests/python && PYTHONPATH=/tmp/ab/rbpc timeout 300 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py \
  test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_mhc_post_hc_head.py \
  2>&1 | tail -n 3) | tee $OUT/tests.log
for tool in racecheck memcheck; do
  PYTHONPATH=/tmp/ab/rbpc timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 python3 \
    benchmarks/results/gpu_logs/2026-12-07b/scripts/sanitize_sw.py > $OUT/san_$tool.log 2>&1; echo "$tool rbpc rc $?"
  tail -n 2 $OUT/san_$tool.log
done
