#!/usr/bin/env bash
# Prepared in session 31 (not run: the session's device budget went to refused machine starts). sw
# (squares_warps_sw.diff): at D = 4096 without the norm, mhc_pre, mhc_pre_delayed and hc_head sum their squares on a
# warpgroup of its own (gram_loop with tile_squares' one entry; 512 threads, the Gram case's registers), so that
# the projection warpgroup's stage is its lane words, 8 wgmma and the fold: tile_squares' 64 conversions and FMAs a
# lane were ~half of that warp's instructions a stage, and the delayed op's stage is what paces it on the H200
# (NOTES, sessions 14, 30, 31). With it, mma_loop takes each stage's fn descriptor base once and adds compile-time
# offsets, which keeps the descriptors on the uniform datapath (every D = 4096 TMA op, the norm's and the seam's too:
# addresses only, the same bits). SASS of the projection's stage loop, instructions a warp: mhc_pre / mhc_pre_delayed
# without the norm 310 -> 181, hc_head 271 -> 150, mhc_pre with the norm 212 -> 179. ptxas: 0 spills, the same
# register split as the norm's Gram warps. Racecheck the new warpgroup too (scripts/sanitize_ops.py).
# nf (store_nan_fast_nf.diff): store_bf16x8 converts with the plain cvt and takes pack_bf16x2's NaN fix-ups only when
# one of its 8 values is a NaN (one predicate chain): the ring collapse's stage spent 64 of its 296 instructions on
# the fix-ups, and after sw that collapse (~245 left) is the longest stream a stage. Same bits by construction; the
# spill profile of the other kernels moved by a few bytes in two pipeline kernels (mhc_pre_delayed TU).
# Build here: `../../2026-11-28zzz/scripts/variant_build.sh m31 ""`, then for V, P in (sw, squares_warps_sw.diff),
# (nf, store_nan_fast_nf.diff), (swnf, both): `variant_build.sh V "git apply benchmarks/results/gpu_logs/2026-12-07/
# scripts/P"`, and `variant_so_xz.sh sw nf swnf`; carry [".carry/w/m31", ".carry/so.tar.xz"]. Same bits as m31,
# determinism, A/B two rounds (AB_BW: the machine's copy rate), the pre / delayed / hc_head / seam tests.
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
for rep in 1 2; do for w in m31 sw nf swnf; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 benchmarks/results/gpu_logs/2026-11-27p/scripts/ab16.py $w "4096 16384 65536" 4096 \
    mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head
done; done 2>&1 | tee $OUT/ab.log
(cd tests/python && PYTHONPATH=/tmp/ab/swnf timeout 240 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py \
  test_mhc_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py 2>&1 | tail -3) | tee $OUT/tests.log
