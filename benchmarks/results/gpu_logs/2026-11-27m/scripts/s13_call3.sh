#!/usr/bin/env bash
# Session 2026-11-27 (13), call 3: fh = mhc_post_hc_head's fused seam on the TMA kernel (the post applied to each stage in
# the ring by a fourth warpgroup) with hc_head's and the seam's TMA thresholds at 1024 (to find them), against hh (fb977e8)
# and base (4f6b551): tests on fh, sanitizers, A/B two rounds, ncu of the seam at T = 16384.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in base hh fh; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
(cd tests/python && PYTHONPATH=/tmp/ab/fh timeout 300 python3 -m pytest -q -x -p no:cacheprovider test_mhc_post_hc_head.py test_hc_head.py -k cuda 2>&1 | tail -4; PYTHONPATH=/tmp/ab/fh timeout 200 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_fused_post_pre.py -k "across_kernels or across_compose or across_engines" 2>&1 | tail -3) | tee $OUT/tests_fh.log
PYTHONPATH=/tmp/ab/fh timeout 150 compute-sanitizer --tool memcheck python3 .carry/s13/race13b.py 2>&1 | tail -3 | tee $OUT/memcheck.log
PYTHONPATH=/tmp/ab/fh timeout 150 compute-sanitizer --tool racecheck python3 .carry/s13/race13b.py 2>&1 | tail -3 | tee $OUT/racecheck.log
for rep in 1 2; do for w in base hh fh; do PYTHONPATH=/tmp/ab/$w timeout 120 python3 .carry/s13/ab_head13.py $w "1024 1536 2048 2560 4096 16384 65536"; done; done 2>&1 | tee $OUT/ab_head.log
for w in hh fh; do PYTHONPATH=/tmp/ab/$w timeout 120 ncu --kernel-name regex:"pipeline|tma|post" --launch-skip 2 --launch-count 2 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats python3 benchmarks/prof_mhc.py mhc_post_hc_head 16384 4096 > $OUT/ncu_post_head_$w.txt 2>&1; echo "== $w"; grep -E "^  [a-z_].*\(|Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Warp Cycles Per Issued" $OUT/ncu_post_head_$w.txt | head -16; done
