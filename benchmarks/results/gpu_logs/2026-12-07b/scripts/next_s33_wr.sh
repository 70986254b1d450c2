#!/usr/bin/env bash
# Prepared in session 32 (not run). wr (wr_lean_write.diff, by a helper from the SASS): the warp-row top-k's ordered
# write as one asm block a step (compare, ballot, popc of the lanes below, predicated st.shared at a running shared
# byte address), copy_out by 16-byte copies where out's row is 16-byte aligned, the next row's cp.async from one lane
# address. 16384 x 2048, k = 512: a row's warp instructions 2506 -> 2085 by the branch walk (the kernel issues at
# ~0.55 a cycle a scheduler, 3 warps each, so the time should follow; ~65 us predicted against 78.3). ptxas: 0 spills
# in every instantiation; <64,1> 163 -> 143 registers. The same selection, ties and order by construction.
# Build here: `../../2026-11-28zzz/scripts/variant_build.sh wr "git apply .../wr_lean_write.diff"`, then
# `variant_so_xz.sh rb pc rbpc wr` (one xz for this script and next_s33.sh); carry [".carry/w/m32", ".carry/so.tar.xz"].
# Exactness (the top-k tests, race32_wr.py under memcheck and racecheck), then A/B two rounds.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
S=benchmarks/results/gpu_logs/2026-12-07b/scripts
BASE=m32 bash benchmarks/results/gpu_logs/2026-11-28zzz/scripts/s28_setup.sh wr
(cd tests/python && PYTHONPATH=/tmp/ab/wr timeout 240 python3 -m pytest -q -p no:cacheprovider test_top_k_per_row_prefill.py \
  test_top_k_per_row_decode.py 2>&1 | tail -n 3) | tee $OUT/tests.log
PYTHONPATH=/tmp/ab/wr timeout 60 python3 $S/race32_wr.py 2>&1 | tail -n 2 | tee $OUT/race_plain.log
for tool in memcheck racecheck; do
  PYTHONPATH=/tmp/ab/wr timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 python3 $S/race32_wr.py \
    > $OUT/san_$tool.log 2>&1; echo "$tool wr rc $?"; tail -n 2 $OUT/san_$tool.log
done
for rep in 1 2; do for w in m32 wr; do PYTHONPATH=/tmp/ab/$w timeout 90 python3 $S/ab_topk32.py $w; done; done 2>&1 | tee $OUT/ab.log
