#!/usr/bin/env bash
# Session 2026-11-26 (12), call 2: h2f (hc_head's bf16-staged pipeline, kHead and kFusedHead: two CTAs an SM at 80 registers,
# no next-tile prefetch, no early collapse loads) against new (2a3da2f): the head CUDA tests on h2f; A/B prefill, two rounds;
# Nsight Compute of hc_head T = 16384 (both).
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in new:.carry/wheels h2f:.carry/w/h2f; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/${w%%:*} ${w#*:}/*.whl; done
export PYTHONUNBUFFERED=1
(cd tests/python && PYTHONPATH=/tmp/ab/h2f timeout 200 python3 -m pytest -q -x -p no:cacheprovider test_mhc_post_hc_head.py test_hc_head.py -k cuda 2>&1 | tail -3; PYTHONPATH=/tmp/ab/h2f timeout 200 python3 -m pytest -q -p no:cacheprovider test_mhc_fused_post_pre.py -k "compose or engines" 2>&1 | tail -3) | tee $OUT/tests_h2f.log
for rep in 1 2; do for w in new h2f; do PYTHONPATH=/tmp/ab/$w python3 .carry/s12/ab_head.py $w "4096" "512 1024 4096 16384 65536"; done; done 2>&1 | tee $OUT/ab_head4096.log
for w in new h2f; do PYTHONPATH=/tmp/ab/$w timeout 120 ncu --kernel-name regex:pipeline --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats python3 benchmarks/prof_mhc.py hc_head 16384 4096 > $OUT/ncu_hc_head_$w.txt 2>&1; grep -E "Duration|DRAM Throughput|Achieved Occupancy|Grid Size|Registers Per|Warp Cycles Per Issued|Stall" $OUT/ncu_hc_head_$w.txt | head -14; done
