#!/usr/bin/env bash
# Prepared in session 27 for the next session (not run): which share of a D = 7168 stage (~1280 cycles against 770 at
# the roof) the projection's split of fn, its A conversion and the ring collapse hold. Build the wheels from main with
# knockout_k_patch.py (wrong values, timing only): kb, ka, kbka ("kb,ka"), kc; carry .carry/w/{main,kb,ka,kbka,kc}
# (5 x ~16.5 MB: over the 64 MB carry, so two calls, e.g. main kb ka / main kbka kc). Argument: the wheel names.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts
for w in "$@"; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for rep in 1 2; do for w in "$@"; do
  PYTHONPATH=/tmp/ab/$w timeout 120 python3 $P/ab16.py $w "4096 16384" 7168 mhc_pre,mhc_pre_delayed
done; done 2>&1 | tee $OUT/ab_knockouts.log
