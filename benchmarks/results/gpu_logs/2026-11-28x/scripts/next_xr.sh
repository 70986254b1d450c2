#!/usr/bin/env bash
# Prepared in session 24 for the next session (not run): xr1 / xr2 (next_row_prefetch_patch.py with NEXT_GROUPS 1 / 2:
# the four-block kernel prefetches its next row's first groups into L2 while this row's chain runs) against t24b
# (main's kernels, 350de5b). race_xr.py (more rows than blocks) plain on xr1 and xr2, memcheck / racecheck /
# synccheck over it on xr2; bimodal_clock.py on t24b; then s23_call9.sh's A/B (bench_topk.py two rounds: the prefill
# rows). Carry .carry/w/{t24b,xr1,xr2}; rebuild the three wheels first if main's topk.cu changed (/tmp/vb/build.sh).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
W=benchmarks/results/gpu_logs/2026-11-27w/scripts
X=benchmarks/results/gpu_logs/2026-11-28x/scripts
for w in t24b xr1 xr2; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for w in xr1 xr2; do echo "== $w"; PYTHONPATH=/tmp/ab/$w timeout 60 python3 $X/race_xr.py 2>&1 | tail -n2; done
for t in memcheck racecheck synccheck; do
  PYTHONPATH=/tmp/ab/xr2 timeout 120 compute-sanitizer --tool $t --error-exitcode 1 python3 $X/race_xr.py > $OUT/$t.log 2>&1
  echo "$t rc $?"; tail -n1 $OUT/$t.log
done
(cd $OUT && tar czf sanitizers.tgz memcheck.log racecheck.log synccheck.log && rm memcheck.log racecheck.log synccheck.log)
PYTHONPATH=/tmp/ab/t24b timeout 90 python3 $X/bimodal_clock.py 2>&1 | tee $OUT/bimodal_clock.log
bash $W/s23_call9.sh t24b xr1 xr2
