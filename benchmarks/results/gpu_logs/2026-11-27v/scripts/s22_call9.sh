#!/usr/bin/env bash
# Session 22, call 9 (prepared, not run: no device time left). a2 (main + a2a_patch.py: clusters of 4-8 exchange each
# pick's histogram all-to-all by st.async, 16-bit bins, instead of remote adds and a cluster barrier) and pr (main +
# prelude_pre_patch.py: the first row's histogram cleared before the PDL wait, slice bounds by a shift) against wu
# (main's kernels, 3e79097): race22_decode.py on a2 and pr (random, tied and skewed rows, clusters of 8 and 2), then
# ab_decode.py two rounds (every result checked). Carry .carry/w/wu, .carry/w/a2, .carry/w/pr.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
V=benchmarks/results/gpu_logs/2026-11-27v/scripts
for w in wu a2 pr; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for w in a2 pr; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 $V/race22_decode.py 2>&1 | tail -3; done | tee $OUT/race22_plain.log
for rep in 1 2; do for w in wu a2 pr; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 $V/ab_decode.py $w; done; done 2>&1 | tee $OUT/ab_decode.log
