#!/usr/bin/env bash
# Prepared in session 26 for the next session (not run): results/mhc from main's build in one run (the D = 7168 seam
# and mhc_pre / mhc_pre_delayed rows changed in 3193e79), as session 21's call 7 ran it (--no-compile: 230 s then).
# Carry the wheel of main (scripts/build_wheel.sh, or /tmp/vb/build.sh NAME true) as .carry/w/NAME; argument NAME.
# Copy $OUT/mhc/mhc.{md,json} (and the .png when written) into benchmarks/results/ after the call.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
w=${1:?wheel name under .carry/w}
rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl
PYTHONPATH=/tmp/ab/$w timeout 400 python3 benchmarks/bench_mhc.py --no-compile --out $OUT/mhc > $OUT/bench_mhc.log 2>&1
echo "bench_mhc rc $?"; tail -3 $OUT/bench_mhc.log
