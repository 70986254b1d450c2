#!/usr/bin/env bash
# Session 16, call 2: m16 (hc_head's ring of 24 slots at D = 7168; the projection pairs' progress word read and
# written with relaxed ld / st; gtest MhcCase n4 D7168 T1601 with and without the norm): racecheck and memcheck over
# race15.py, the new gtest cases; then tr (trace_patch16.py over m16: %globaltimer
# stamps of every CTA) at T = 4032 and 16384, D = 4096.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in m16 tr; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27p/scripts; S15=benchmarks/results/gpu_logs/2026-11-27o/scripts
PYTHONPATH=/tmp/ab/m16 timeout 240 compute-sanitizer --tool racecheck --error-exitcode 1 python3 $S15/race15.py > $OUT/racecheck_m16.log 2>&1; echo "racecheck rc $?"; tail -2 $OUT/racecheck_m16.log
PYTHONPATH=/tmp/ab/m16 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 python3 $S15/race15.py > $OUT/memcheck_m16.log 2>&1; echo "memcheck rc $?"; tail -1 $OUT/memcheck_m16.log
gunzip -c .carry/b16/test_cuda_launchers.gz > /tmp/tcl && chmod +x /tmp/tcl && timeout 200 /tmp/tcl --gtest_filter='*D7168*:*D4096_T2600*' 2>&1 | tail -12 | tee $OUT/gtest_m16.log
PYTHONPATH=/tmp/ab/tr timeout 100 python3 $S/trace16.py 4032 4096 > $OUT/trace4032.log 2>&1; echo "trace rc $?"
PYTHONPATH=/tmp/ab/tr timeout 100 python3 $S/trace16.py 16384 4096 > $OUT/trace16384.log 2>&1; echo "trace rc $?"
python3 $S/parse16.py $OUT/trace4032.log | tee $OUT/trace4032_summary.txt
python3 $S/parse16.py $OUT/trace16384.log | tee $OUT/trace16384_summary.txt
