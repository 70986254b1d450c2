#!/usr/bin/env bash
# Prepared in session 32 (not run: the device budget was spent): same-bits instruction trims of the mHC kernels,
# against main (m32 = 5e53c0f's wheel). Variants (the patches in this directory; NOTES, session 32):
#   rb   round_bf16x8_rb.diff: the fused norm's rounding of the collapse, NaN fix-ups only on a NaN
#   pc   post_chunk_nan_fast_pc.diff: the post's packs (the seam's post warpgroup, the fused ops), likewise
#   ca   collapse_addr_ca.diff: the re-read collapse's addresses from one base a tile (D = 7168 2119 -> 1552
#        instructions a tile without the norm; D = 4096 266 -> 193 a stage)
#   cpg  collapse_proj_gram_cpg.diff: ca + pz (project_tf32 accumulates from the first chain) + gj (gram_own's unused
#        A rows left as they are: relies on an mma element depending on its own A row only, as gram_own already does)
#   all  cpg + rb + pc
# Built here with ../../2026-11-28zzz/scripts/variant_build.sh NAME "git apply ...", packed by variant_so_xz.sh
# rb pc ca cpg all wr (wr: next_s33_wr.sh). Carry [".carry/w/m32", ".carry/so.tar.xz"]. Argument: the variants (default
# all five). Same bits against m32 (every TMA op, both D, decode and prefill sizes), determinism, A/B two rounds both D,
# decode rows. Then next_s33_check.sh VARIANT (tests, sanitizers) on the one to land.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
VS=${*:-rb pc ca cpg all}
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
grep -q H200 $OUT/gpu.txt && export AB_BW=4.17e12 || export AB_BW=2.95e12
Z=benchmarks/results/gpu_logs/2026-11-28zzz/scripts
BASE=m32 bash $Z/s28_setup.sh $VS
export SB_T=1,5,16,64,1024,1100,4100,9000 SB_OPS=mhc_pre,mhc_pre_delayed,mhc_fused_post_pre,hc_head,mhc_post_hc_head
SB=benchmarks/results/gpu_logs/2026-11-27r/scripts/same_bits18.py; mkdir -p /tmp/sb
(OUT=/tmp/sb PYTHONPATH=/tmp/ab/m32 timeout 120 python3 $SB m32
 for w in $VS; do OUT=/tmp/sb PYTHONPATH=/tmp/ab/$w timeout 120 python3 $SB $w m32; done) 2>&1 | tee $OUT/bits.log
for w in $VS; do DET_OPS=mhc_pre,mhc_post_hc_head PYTHONPATH=/tmp/ab/$w timeout 60 python3 $Z/det28.py $w 5 7168; done \
  2>&1 | tee $OUT/det.log
AB=benchmarks/results/gpu_logs/2026-11-27p/scripts/ab16.py
for rep in 1 2; do for w in m32 $VS; do for d in 4096 7168; do
  PYTHONPATH=/tmp/ab/$w timeout 90 python3 $AB $w "4096 16384 65536" $d mhc_pre,mhc_pre_delayed,mhc_post_hc_head,mhc_fused_post_pre
done; done; done 2>&1 | tee $OUT/ab.log
for w in m32 $VS; do for d in 4096 7168; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $AB $w "1 16" $d mhc_pre,mhc_post_hc_head,mhc_fused_post_pre
done; done 2>&1 | tee $OUT/ab_decode.log
