#!/usr/bin/env bash
# Prepared in session 25 for the next session (not run): wp's validation if next_wp_a.sh keeps it: memcheck and
# synccheck over race23_decode.py, racecheck over its all-to-all shapes (0 1 3) and race_few.py, the three tools
# over race23_prefill.py, then test_cuda_launchers built from the patched tree (.carry/bin/test_cuda_launchers_wp.gz).
# Carry .carry/w/wp and .carry/bin.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
W=benchmarks/results/gpu_logs/2026-11-27w/scripts
Y=benchmarks/results/gpu_logs/2026-11-28y/scripts
rm -rf /tmp/ab/wp; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/wp .carry/w/wp/*.whl
export PYTHONPATH=/tmp/ab/wp
cs() { local log=$OUT/$1_$(basename $3 .py)${5:+_$5}.log; timeout 150 compute-sanitizer --tool $1 --error-exitcode 1 "${@:2}" > $log 2>&1; echo "$1 $3 ${*:4} rc $?"; tail -n1 $log; }
cs memcheck python3 $W/race23_decode.py
cs synccheck python3 $W/race23_decode.py
cs racecheck python3 $W/race23_decode.py 0 1 3
cs racecheck python3 $Y/race_few.py
for t in memcheck racecheck synccheck; do cs $t python3 $W/race23_prefill.py; done
(cd $OUT && tar czf sanitizers.tgz *check_*.log && rm *check_*.log)
gunzip -f .carry/bin/test_cuda_launchers_wp.gz
timeout 120 .carry/bin/test_cuda_launchers_wp --gtest_brief=1 2>&1 | tail -n3 | tee $OUT/gtest.log
