#!/usr/bin/env bash
# Session 2026-11-27 (13), call 1: hc_head on the TMA kernel with the held collapse (h128: from 128 tokens, to find the
# threshold) against main 4f6b551 (base): tests on h128, sanitizers, A/B of hc_head and the final seam, two rounds.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in base h128; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
(cd tests/python && PYTHONPATH=/tmp/ab/h128 timeout 300 python3 -m pytest -q -x -p no:cacheprovider test_hc_head.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -3; PYTHONPATH=/tmp/ab/h128 timeout 200 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_fused_post_pre.py -k "across_kernels or across_compose or across_engines" 2>&1 | tail -3) | tee $OUT/tests_h128.log
PYTHONPATH=/tmp/ab/h128 timeout 120 compute-sanitizer --tool memcheck python3 .carry/s13/race13.py 2>&1 | tail -3 | tee $OUT/memcheck.log
PYTHONPATH=/tmp/ab/h128 timeout 120 compute-sanitizer --tool racecheck python3 .carry/s13/race13.py 2>&1 | tail -3 | tee $OUT/racecheck.log
for rep in 1 2; do for w in base h128; do PYTHONPATH=/tmp/ab/$w python3 .carry/s13/ab_head13.py $w "128 256 512 1024 2048 4096 16384 65536"; done; done 2>&1 | tee $OUT/ab_head.log
for w in base h128; do PYTHONPATH=/tmp/ab/$w timeout 120 ncu --kernel-name regex:"pipeline|tma" --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats python3 benchmarks/prof_mhc.py hc_head 16384 4096 > $OUT/ncu_hc_head_$w.txt 2>&1; echo "== $w"; grep -E "Duration|DRAM Throughput|Achieved Occupancy|Grid Size|Registers Per|Warp Cycles Per Issued|Stall" $OUT/ncu_hc_head_$w.txt | head -14; done
