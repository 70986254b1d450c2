#!/usr/bin/env bash
# Session 16, call 4: bc = D = 4096 fn staging by bulk copies (fp32 items into the parts' space, then split there)
# on top of st2 (= st with the progress word read by atom.shared.or, written by st.relaxed), against st2 and hd16:
# same bits, A/B at D = 4096, the mHC CUDA tests on bc, racecheck over race16.py.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in hd16 st2 bc; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27p/scripts
PYTHONPATH=/tmp/ab/bc timeout 150 compute-sanitizer --tool racecheck --error-exitcode 1 python3 $S/race16.py > $OUT/racecheck_bc.log 2>&1; echo "racecheck rc $?"; tail -2 $OUT/racecheck_bc.log
PYTHONPATH=/tmp/ab/hd16 timeout 120 python3 $S/same_bits16.py hd16 2>&1 | tail -2
PYTHONPATH=/tmp/ab/bc timeout 120 python3 $S/same_bits16.py bc hd16 2>&1 | tail -2 | tee $OUT/same_bits.log
for rep in 1 2; do for w in hd16 st2 bc; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/ab16.py $w "1024 4096 16384" 4096; done; done 2>&1 | tee $OUT/ab4096.log
(cd tests/python && PYTHONPATH=/tmp/ab/bc timeout 300 python3 -m pytest -q -x -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_bc.log
