#!/usr/bin/env bash
# Session 14, call 7: pr (mhc_pre_delayed without the norm: two stages a projection step, their wgmma interleaved) and
# ll3 (kLoadLag 3 with the faster re-read collapse) against base (f0dcd91): smoke of pr (stop on failure), the
# mhc_pre / mhc_pre_delayed CUDA tests on pr, racecheck over race14c.py, A/B two rounds.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in base ll3 pr; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/pr timeout 90 python3 .carry/s14/smoke14.py 2>&1 | tail -4 | tee $OUT/smoke.log; rc=${PIPESTATUS[0]}
echo "smoke rc $rc"; [ $rc -eq 0 ] || exit 1
(cd tests/python && PYTHONPATH=/tmp/ab/pr timeout 200 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre_delayed.py -k cuda 2>&1 | tail -2) | tee $OUT/tests_pr.log
PYTHONPATH=/tmp/ab/pr timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 python3 .carry/s14/race14c.py > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -1 $OUT/racecheck.log
for rep in 1 2; do for w in base ll3 pr; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 .carry/s14/ab14.py $w "4096 16384 65536" 4096 mhc_pre,mhc_pre_delayed; done; done 2>&1 | tee $OUT/ab.log
