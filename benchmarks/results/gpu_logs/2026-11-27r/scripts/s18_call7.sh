#!/usr/bin/env bash
# Session 18, call 7: hc (the held collapse's last tile split between the collapse and the projection warpgroups)
# against l18 (cd35ace): same bits (hc_head, the seam: TMA sizes, both D), A/B T = 4096 / 16384, the hc_head and
# seam CUDA tests, memcheck over race15.py (the D = 7168 TMA paths).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; S=benchmarks/results/gpu_logs/2026-11-27r/scripts; S15=benchmarks/results/gpu_logs/2026-11-27o/scripts
rm -rf /tmp/ab/l18; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/l18 .carry/wheels/*.whl
rm -rf /tmp/ab/hc; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/hc .carry/w/hc/*.whl
export SB_OPS=hc_head,mhc_post_hc_head SB_T=1536,1601,2600,4096,4100
PYTHONPATH=/tmp/ab/l18 timeout 120 python3 $S/same_bits18.py l18 2>&1 | tail -1
PYTHONPATH=/tmp/ab/hc timeout 120 python3 $S/same_bits18.py hc l18 2>&1 | tail -1 | tee $OUT/same_bits.log
rm -f $OUT/bits_l18.pt
for rep in 1 2 3; do for d in 4096 7168; do for w in l18 hc; do
  PYTHONPATH=/tmp/ab/$w timeout 100 python3 $P/ab16.py $w "4096 16384" $d hc_head,mhc_post_hc_head
done; done; done 2>&1 | tee $OUT/ab_hc.log
(cd tests/python && PYTHONPATH=/tmp/ab/hc timeout 150 python3 -m pytest -q -p no:cacheprovider test_hc_head.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
PYTHONPATH=/tmp/ab/hc timeout 80 compute-sanitizer --tool memcheck --error-exitcode 1 python3 $S15/race15.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -1 $OUT/memcheck.log
