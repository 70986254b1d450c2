#!/usr/bin/env bash
# Session 16, call 3: st = m16 + fn's staging off the projection's path (D = 4096: both items' loads of a thread
# together and the bf16 parts by cvt.rn.bf16x2 (split3_bf16x2, also the pipeline kernel's staging); D = 7168: bulk
# copies on an mbarrier) against hd16 (c88b1d0): same bits, A/B at D = 4096 and 7168, the mHC CUDA tests, racecheck
# over race16.py.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in hd16 st; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27p/scripts
PYTHONPATH=/tmp/ab/hd16 timeout 120 python3 $S/same_bits16.py hd16 2>&1 | tail -2
PYTHONPATH=/tmp/ab/st timeout 120 python3 $S/same_bits16.py st hd16 2>&1 | tail -2 | tee $OUT/same_bits.log
for rep in 1 2; do for w in hd16 st; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/ab16.py $w "512 1024 4096 16384" 4096; done; done 2>&1 | tee $OUT/ab4096.log
for rep in 1 2; do for w in hd16 st; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/ab16.py $w "1024 4096 16384" 7168; done; done 2>&1 | tee $OUT/ab7168.log
(cd tests/python && PYTHONPATH=/tmp/ab/st timeout 300 python3 -m pytest -q -x -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_st.log
PYTHONPATH=/tmp/ab/st timeout 150 compute-sanitizer --tool racecheck --error-exitcode 1 python3 $S/race16.py > $OUT/racecheck_st.log 2>&1; echo "racecheck rc $?"; tail -2 $OUT/racecheck_st.log
