#!/usr/bin/env bash
# Session 32, call 1: the A/B session 31 prepared (../2026-12-07/scripts/next_s32_sw.sh) plus sanitizers of the
# variant with both patches. m31 = main's wheel (ff351a3); sw = squares_warps_sw.diff, nf = store_nan_fast_nf.diff,
# swnf = both (built here with ../2026-11-28zzz/scripts/variant_build.sh, packed by variant_so_xz.sh sw nf swnf).
# Carry [".carry/w/m31", ".carry/so.tar.xz"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
grep -q H200 $OUT/gpu.txt && export AB_BW=4.17e12 || export AB_BW=2.95e12
Z=benchmarks/results/gpu_logs/2026-11-28zzz/scripts
BASE=m31 bash $Z/s28_setup.sh sw nf swnf
export SB_T=1024,1100,4100,9000 SB_OPS=mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head
SB=benchmarks/results/gpu_logs/2026-11-27r/scripts/same_bits18.py; mkdir -p /tmp/sb
(OUT=/tmp/sb PYTHONPATH=/tmp/ab/m31 timeout 90 python3 $SB m31
 for w in sw nf swnf; do OUT=/tmp/sb PYTHONPATH=/tmp/ab/$w timeout 90 python3 $SB $w m31; done) 2>&1 | tee $OUT/bits.log
DET_OPS=mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head PYTHONPATH=/tmp/ab/swnf timeout 90 python3 $Z/det28.py swnf 10 4096 \
  2>&1 | tee $OUT/det.log
AB=benchmarks/results/gpu_logs/2026-11-27p/scripts/ab16.py
for rep in 1 2; do for w in m31 sw nf swnf; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $AB $w "4096 16384 65536" 4096 mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head
done; done 2>&1 | tee $OUT/ab.log
for w in m31 swnf; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $AB $w "1 8 64" 4096 mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $AB $w "16384" 7168 mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head
done 2>&1 | tee $OUT/ab_more.log
(cd tests/python && PYTHONPATH=/tmp/ab/swnf timeout 240 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py \
  test_mhc_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py 2>&1 | tail -3) | tee $OUT/tests.log
for tool in racecheck memcheck; do
  PYTHONPATH=/tmp/ab/swnf timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 python3 benchmarks/results/gpu_logs/2026-12-07b/scripts/sanitize_sw.py \
    > $OUT/san_$tool.log 2>&1; echo "$tool swnf rc $?"; tail -2 $OUT/san_$tool.log
done
