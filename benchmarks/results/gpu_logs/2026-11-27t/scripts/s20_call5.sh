#!/usr/bin/env bash
# Session 20, call 5: hp (timing only, wrong values: mhc_pre / mhc_pre_delayed with the norm at D = 4096 on the TMA
# kernel's held collapse, fn's shared slice cut to two B blocks; held_pre_timing_hp_patch.py) against l20, prefill
# T = 4096 / 16384 / 65536, two rounds.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts
for w in l20 hp; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for rep in 1 2; do for w in l20 hp; do
  PYTHONPATH=/tmp/ab/$w timeout 150 python3 $P/ab16.py $w "1024 4096 16384 65536" 4096 mhc_pre,mhc_pre_delayed,mhc_fused_post_pre
done; done 2>&1 | tee $OUT/ab.log
