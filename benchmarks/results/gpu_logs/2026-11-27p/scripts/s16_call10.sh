#!/usr/bin/env bash
# Session 16, call 10: lp = the progress word polled by lane 0 (atom) and broadcast by shfl (32 lanes' atomics on one
# word serialise), against hd47 (47096ac: every lane's atom) and st (relaxed ld): A/B at D = 7168, racecheck over
# race16.py, the hc_head / seam CUDA tests at D = 7168 and across kernels.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=benchmarks/results/gpu_logs/2026-11-27p/scripts
rm -rf /tmp/ab/*; for w in hd47 st lp; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/lp timeout 120 compute-sanitizer --tool racecheck --error-exitcode 1 python3 $S/race16.py > $OUT/racecheck_lp.log 2>&1; echo "racecheck rc $?"; tail -1 $OUT/racecheck_lp.log
for rep in 1 2 3; do for w in hd47 st lp; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/ab16.py $w "4096 16384" 7168 hc_head,mhc_post_hc_head; done; done 2>&1 | tee $OUT/ab7168_poll.log
(cd tests/python && PYTHONPATH=/tmp/ab/lp timeout 200 python3 -m pytest -q -p no:cacheprovider test_hc_head.py test_mhc_post_hc_head.py -k "cuda and (7168 or across or graph)" 2>&1 | tail -2) | tee $OUT/tests_lp.log
