#!/usr/bin/env bash
# Session 2026-11-26 (7), call 5: ft4 = ft3 + the fused delayed op without the norm collapsing from the ring (post applied again by the collapse), against fc and ft2.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in fc ft2 ft4; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/ft4 timeout 150 python3 -m pytest -q tests/python/test_mhc_fused_post_pre.py tests/python/test_mhc_fused_post_pre_delayed.py -k cuda 2>&1 | tail -2
for rep in 1 2; do for w in fc ft2 ft4; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 .carry/ab_fused.py $w "4096" "1024 4096 16384 65536"; done; done 2>&1 | tee $OUT/ab_fused.log | cut -c1-160
export PYTHONPATH=/tmp/ab/ft4
timeout 120 ncu --kernel-name regex:mhc_tma_kernel --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
    python3 .carry/prof_fused.py mhc_fused_post_pre_delayed nonorm 16384 > $OUT/ncu_ft4_fused_delayed_nonorm.txt 2>&1; echo "ncu rc $?"
grep -E "Duration|DRAM Throughput|L2 Hit|Warp Cycles Per Issued|Achieved Occupancy" $OUT/ncu_ft4_fused_delayed_nonorm.txt
