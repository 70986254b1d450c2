#!/usr/bin/env bash
# Session 2026-11-26 (7), call 2: the TMA kernel for the fused ops (.carry/w/ft): mHC CUDA tests, memcheck, A/B against u4 and fc, ncu.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in u4 fc ft; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONPATH=/tmp/ab/ft
timeout 200 python3 -m pytest -q -x tests/python/test_mhc_fused_post_pre.py tests/python/test_mhc_fused_post_pre_delayed.py -k cuda 2>&1 | tail -4
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 python3 scripts/sanitize_ops.py 2>&1 | tail -3
for rep in 1 2; do for w in u4 fc ft; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 .carry/ab_fused.py $w "4096" "1024 4096 16384 65536"; done; done 2>&1 | tee $OUT/ab_fused.log
timeout 200 python3 -m pytest -q tests/python/test_mhc_pre.py tests/python/test_mhc_pre_delayed.py tests/python/test_hc_head.py tests/python/test_mhc_post*.py -k cuda 2>&1 | tail -3
for v in "mhc_fused_post_pre norm" "mhc_fused_post_pre_delayed nonorm"; do
  tag=$(echo $v | tr ' ' _)
  timeout 120 ncu --kernel-name regex:mhc_tma_kernel --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
    python3 .carry/prof_fused.py $v 16384 > $OUT/ncu_$tag.txt 2>&1; echo "ncu $tag rc $?"
  grep -E "Duration|DRAM Throughput|Memory Throughput|Warp Cycles Per Issued|Achieved Occupancy" $OUT/ncu_$tag.txt
done
